package io.coordinate.bench;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.coordinate.protocol.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What the bench's workers read from an assignment and write back, without a JSON tree. The workers stand for a
 * fleet on other machines, but here they share the app's two cores: reading each assignment of 100 attempts into
 * a tree took the load generator's dispatcher ~0.15 of a core during the lifecycle (JFR, 23 November 11:53), CPU
 * the app's stream thread then waited for. The baseline's load costs nearly nothing while it is measured (its
 * input is produced before, its output only counted), so the lifecycle's load is kept as lean.
 */
final class WorkerMessages {

    /** An attempt of an assignment: its id, and the unit it is for. */
    record Attempt(String id, String unit) {}

    private WorkerMessages() {}

    /**
     * The attempts of an assignment ({@code {"attempts": [{"attempt_id", "work_unit_name", ...}, ...], ...}},
     * docs/reference.md#assignment), in their order; their other fields (data, times) are skipped unread.
     */
    static List<Attempt> attempts(byte[] assignment) {
        try (JsonParser in = Json.MAPPER.getFactory().createParser(assignment)) {
            expect(in.nextToken(), JsonToken.START_OBJECT);
            List<Attempt> attempts = new ArrayList<>();
            String field;
            while ((field = in.nextFieldName()) != null) {
                JsonToken value = in.nextToken();
                if (field.equals("attempts") && value == JsonToken.START_ARRAY) {
                    while (in.nextToken() == JsonToken.START_OBJECT) {
                        attempts.add(attempt(in));
                    }
                } else {
                    in.skipChildren();
                }
            }
            return attempts;
        } catch (IOException e) {
            throw new IllegalStateException("unreadable assignment from the app", e);
        }
    }

    /** One attempt's object, the parser on its start; returns with the parser on its end. */
    private static Attempt attempt(JsonParser in) throws IOException {
        String id = null;
        String unit = null;
        String field;
        while ((field = in.nextFieldName()) != null) {
            JsonToken value = in.nextToken();
            if (field.equals("attempt_id") && value == JsonToken.VALUE_STRING) {
                id = in.getText();
            } else if (field.equals("work_unit_name") && value == JsonToken.VALUE_STRING) {
                unit = in.getText();
            } else {
                in.skipChildren();
            }
        }
        if (id == null) {
            throw new IOException("an attempt without attempt_id");
        }
        return new Attempt(id, unit);
    }

    private static void expect(JsonToken token, JsonToken expected) throws IOException {
        if (token != expected) {
            throw new IOException("expected " + expected + ", found " + token);
        }
    }

    /**
     * A {@code finish_attempts} command for the attempts (docs/reference.md#finish_attempts); {@code replyTo} and
     * {@code requestId} are left out when null.
     */
    static byte[] finishAttempts(String namespace, List<Attempt> attempts, String replyTo, String requestId) {
        return Json.bytes(64 + 24 * attempts.size(), out -> {
            out.writeStartObject();
            out.writeStringField("command", "finish_attempts");
            out.writeStringField("namespace", namespace);
            out.writeArrayFieldStart("attempts");
            for (Attempt attempt : attempts) {
                out.writeStartObject();
                out.writeStringField("attempt_id", attempt.id());
                out.writeEndObject();
            }
            out.writeEndArray();
            if (replyTo != null) {
                out.writeStringField("reply_to", replyTo);
            }
            if (requestId != null) {
                out.writeStringField("request_id", requestId);
            }
            out.writeEndObject();
        });
    }
}
