package io.coordinate.engine.handlers;

import static io.coordinate.protocol.FieldNames.ATTEMPT_ID;
import static io.coordinate.protocol.FieldNames.EXPIRATION_TIME;
import static io.coordinate.protocol.FieldNames.WORKER;
import static io.coordinate.protocol.FieldNames.WORK_SPEC_NAME;
import static io.coordinate.protocol.FieldNames.WORK_UNIT_NAME;

import com.fasterxml.jackson.core.SerializableString;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.JsonBytes;
import io.coordinate.protocol.RepeatedText;
import io.coordinate.protocol.Times;

/**
 * The assignment (docs/reference.md#assignment), written as JSON while its attempts are started: a request hands out up
 * to many attempts, and a tree of them would be built only to be written and dropped. It also tells the request when to
 * stop: an assignment is one record on {@code coordinate.assignments} (and on the replies), which Kafka refuses above
 * 1 MiB, so a request hands out no more attempts once {@link #MAX_BYTES} are written (at least one: a unit's data is at
 * most {@link io.coordinate.protocol.DataLimit#MAX_DATA_BYTES}).
 */
final class AssignmentWriter {

    static final int MAX_BYTES = 512 * 1024;

    private static final SerializableString NAMESPACE = Json.encoded("namespace");
    private static final SerializableString REQUEST_ID = Json.encoded("request_id");
    private static final SerializableString ATTEMPTS = Json.encoded("attempts");
    private static final SerializableString DATA = Json.encoded("data");
    private static final SerializableString START_TIME = Json.encoded("start_time");
    private static final SerializableString RETRY_AFTER_MS = Json.encoded("retry_after_ms");

    private final JsonBytes out;
    // a request's attempts share their spec (most often) and their start and expiration times
    private final RepeatedText spec = new RepeatedText();
    private final RepeatedText start = new RepeatedText();
    private final RepeatedText expiration = new RepeatedText();
    private int attempts;
    /** Millis until a rate limit that held the request short has a token again; null when none did. */
    private Long retryAfterMillis;
    /** The numbers of the attempts written, in order: what a repeat of the request writes again. */
    private long[] seqs = new long[16];

    AssignmentWriter(String ns, String worker, String requestId, long count) {
        out = new JsonBytes((int) Math.min(256 + 192 * count, 64 * 1024));
        out.punctuation('{').name(NAMESPACE).string(ns);
        out.nextName(WORKER).string(worker);
        out.nextName(REQUEST_ID).string(requestId); // null: written as null
        out.nextName(ATTEMPTS).punctuation('[');
    }

    void add(AttemptRecord attempt) {
        if (attempts == seqs.length) {
            seqs = java.util.Arrays.copyOf(seqs, 2 * attempts);
        }
        if (attempts > 0) {
            out.punctuation(',');
        }
        seqs[attempts++] = attempt.seq();
        out.punctuation('{').name(ATTEMPT_ID).quotedNumber(attempt.seq()); // its id()
        out.nextName(WORK_SPEC_NAME).quoted(spec.of(attempt.spec()));
        out.nextName(WORK_UNIT_NAME).string(attempt.unit());
        out.nextName(DATA).value(attempt.data());
        out.nextName(START_TIME).quoted(start.of(Times.format(attempt.startTime())));
        out.nextName(EXPIRATION_TIME).quoted(expiration.of(Times.format(attempt.expirationTime())));
        out.punctuation('}');
    }

    long[] seqs() {
        return java.util.Arrays.copyOf(seqs, attempts);
    }

    boolean isEmpty() {
        return attempts == 0;
    }

    /** The attempts written so far. */
    int size() {
        return attempts;
    }

    /** Adds {@code retry_after_ms} after the attempts (docs/reference.md#assignment). */
    void retryAfter(long millis) {
        retryAfterMillis = millis;
    }

    /** Whether the attempts written so far fill the record: hand out no more. */
    boolean full() {
        return out.size() >= MAX_BYTES;
    }

    byte[] bytes() {
        out.punctuation(']');
        if (retryAfterMillis != null) {
            out.nextName(RETRY_AFTER_MS).number(retryAfterMillis);
        }
        return out.punctuation('}').toByteArray();
    }
}
