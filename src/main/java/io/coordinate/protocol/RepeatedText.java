package io.coordinate.protocol;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;

/**
 * A JSON string value that most often repeats the one before: the spec name of every attempt of a request, their
 * common start and expiration times, the worker of a command's events. The value's quoted UTF-8 form is kept, and
 * written again as bytes while the text is the same, instead of being escaped character by character each time
 * (on the request path, escaping strings was a large share of writing an assignment). One instance per output being
 * written; not for concurrent use.
 */
public final class RepeatedText {

    private String last;
    private SerializableString encoded;

    /** {@code text} in its encoded form (null for null). */
    public SerializableString of(String text) {
        if (text == null) {
            return null;
        }
        if (!text.equals(last)) {
            last = text;
            encoded = new SerializedString(text);
        }
        return encoded;
    }
}
