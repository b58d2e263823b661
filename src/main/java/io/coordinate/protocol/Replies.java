package io.coordinate.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The reply records of {@code coordinate.replies}. */
public final class Replies {

    private Replies() {}

    /**
     * @param correlationId the command's {@code correlation_id}, echoed when not null (a reply without one is as it
     *     always was)
     */
    public static ObjectNode ok(String requestId, String correlationId, JsonNode result) {
        ObjectNode reply = envelope(requestId, correlationId);
        reply.put("ok", true);
        reply.set("result", result == null ? Json.object() : result);
        return reply;
    }

    public static ObjectNode error(String requestId, String correlationId, CommandRejection rejection) {
        ObjectNode reply = envelope(requestId, correlationId);
        reply.put("ok", false);
        ObjectNode error = reply.putObject("error");
        error.put("code", rejection.code().code());
        error.put("message", rejection.getMessage());
        return reply;
    }

    private static ObjectNode envelope(String requestId, String correlationId) {
        ObjectNode reply = Json.object();
        if (requestId == null) {
            reply.putNull("request_id");
        } else {
            reply.put("request_id", requestId);
        }
        if (correlationId != null) {
            reply.put("correlation_id", correlationId);
        }
        return reply;
    }
}
