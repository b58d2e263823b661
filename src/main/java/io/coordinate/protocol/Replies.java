package io.coordinate.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The reply records of {@code coordinate.replies}. */
public final class Replies {

  private Replies() {}

  public static ObjectNode ok(String requestId, JsonNode result) {
    ObjectNode reply = Json.object();
    putRequestId(reply, requestId);
    reply.put("ok", true);
    reply.set("result", result == null ? Json.object() : result);
    return reply;
  }

  public static ObjectNode error(String requestId, CommandRejection rejection) {
    ObjectNode reply = Json.object();
    putRequestId(reply, requestId);
    reply.put("ok", false);
    ObjectNode error = reply.putObject("error");
    error.put("code", rejection.code().code());
    error.put("message", rejection.getMessage());
    return reply;
  }

  private static void putRequestId(ObjectNode reply, String requestId) {
    if (requestId == null) {
      reply.putNull("request_id");
    } else {
      reply.put("request_id", requestId);
    }
  }
}
