package io.coordinate.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A JSON object whose last field is a list, written into bytes while the list grows:
 * {@code {<header fields>, "<list>": [<items>]}}. The records with many items (an assignment's attempts, a
 * command's events) are written this way, without a tree that would be built only to be written and dropped.
 */
public final class JsonListRecord {

    private final ByteArrayBuilder bytes;
    private final JsonGenerator out;

    /** Opens the object, writes the header's fields, opens the list. */
    public JsonListRecord(int sizeHint, Json.Writing header, SerializableString list) {
        bytes = new ByteArrayBuilder(sizeHint);
        try {
            out = Json.MAPPER.getFactory().createGenerator(bytes);
            out.writeStartObject();
            header.write(out);
            out.writeFieldName(list);
            out.writeStartArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where the list's items are written. */
    public JsonGenerator out() {
        return out;
    }

    /** The bytes written so far. */
    public int size() {
        return bytes.size() + out.getOutputBuffered();
    }

    /** Closes the list and the object: the record. */
    public byte[] finish() {
        return finish(null);
    }

    /** Closes the list, writes the {@code trailer}'s fields (none when null) and closes the object: the record. */
    public byte[] finish(Json.Writing trailer) {
        try {
            out.writeEndArray();
            if (trailer != null) {
                trailer.write(out);
            }
            out.writeEndObject();
            out.close();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
