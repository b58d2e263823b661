package io.coordinate.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.RecordLimit;
import io.javalin.http.Context;
import io.javalin.router.JavalinDefaultRouting;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * {@code POST /api/namespaces/{ns}/commands}: submits the body through Kafka and answers with the reply record
 * ({@code {"request_id", "ok", "result" | "error"}}): 200 when {@code ok}, 422 when the app rejected it, 504
 * when no reply came in time (the command may still be applied later), 502 when it could not be sent. The
 * body's {@code namespace} defaults to the path's; a different one is 400 {@code namespace_mismatch}. The
 * gateway sets its own {@code reply_to}/{@code request_id} to correlate; the reply carries the client's
 * {@code request_id} back (null when it gave none). Any instance can submit: no forwarding. A body over {@link
 * #MAX_BODY_BYTES} is 413 {@code body_too_large}.
 */
final class CommandRoutes {

  /** A command is one Kafka record, which cannot be larger ({@code protocol.RecordLimit}). */
  static final int MAX_BODY_BYTES = RecordLimit.MAX_RECORD_BYTES;

  private final CommandGateway gateway;
  private final Duration timeout;

  CommandRoutes(CommandGateway gateway, Duration timeout) {
    this.gateway = gateway;
    this.timeout = timeout;
  }

  void register(JavalinDefaultRouting routes) {
    routes.post("/api/namespaces/{ns}/commands", this::submit);
  }

  private void submit(Context ctx) {
    String ns = ctx.pathParam("ns");
    ObjectNode command = body(ctx);
    JsonNode given = command.get("namespace");
    if (given == null || given.isNull()) {
      command.put("namespace", ns);
    } else if (!given.isTextual() || !given.textValue().equals(ns)) {
      throw QueryError.badRequest("namespace_mismatch",
          "command namespace " + given + " differs from the path's \"" + ns + "\"");
    }
    JsonNode clientRequestId = command.get("request_id");
    CompletableFuture<ObjectNode> reply;
    try {
      reply = gateway.submit(ns, command, timeout);
    } catch (RuntimeException e) {
      reply = CompletableFuture.failedFuture(e);
    }
    CompletableFuture<ObjectNode> pending = reply;
    ctx.future(() -> pending.handleAsync((answer, failure) -> { // off the Kafka poll and timer threads
      respond(ctx, answer, failure, clientRequestId);
      return null;
    }));
  }

  private static ObjectNode body(Context ctx) {
    JsonNode body;
    try {
      body = Json.parse(bodyBytes(ctx));
    } catch (QueryError e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw QueryError.badRequest("malformed_json", "the body is not one JSON value: " + e.getMessage());
    }
    if (!body.isObject()) {
      throw QueryError.badRequest("bad_command", "a command must be a JSON object");
    }
    return (ObjectNode) body;
  }

  /**
   * At most {@link #MAX_BODY_BYTES}, else 413: a declared length is refused before reading, and a chunked body is
   * read no further than one byte past the limit.
   */
  private static byte[] bodyBytes(Context ctx) throws IOException {
    if (ctx.req().getContentLengthLong() > MAX_BODY_BYTES) {
      throw tooLarge();
    }
    byte[] bytes = ctx.bodyInputStream().readNBytes(MAX_BODY_BYTES + 1);
    if (bytes.length > MAX_BODY_BYTES) {
      throw tooLarge();
    }
    return bytes;
  }

  private static QueryError tooLarge() {
    return new QueryError(413, "body_too_large", "a command's body is at most " + MAX_BODY_BYTES + " bytes", false);
  }

  private void respond(Context ctx, ObjectNode reply, Throwable failure, JsonNode clientRequestId) {
    Throwable cause = failure;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof TimeoutException) {
      Responses.json(ctx, 504, Responses.error("timeout",
          "no reply within " + timeout.toMillis() + " ms; the command may still be applied"));
    } else if (cause != null) {
      Responses.json(ctx, 502, Responses.error("gateway_error", "the command could not be submitted: " + cause));
    } else {
      ObjectNode answer = reply.deepCopy();
      JsonNode clientId = clientRequestId == null ? Json.MAPPER.nullNode() : clientRequestId;
      // The gateway's own correlation id also shows inside an assignment: give the client's back there too.
      if (answer.path("result").isObject() && answer.get("result").has("request_id")
          && answer.get("result").get("request_id").equals(reply.get("request_id"))) {
        ((ObjectNode) answer.get("result")).set("request_id", clientId);
      }
      answer.set("request_id", clientId);
      Responses.json(ctx, answer.path("ok").asBoolean(false) ? 200 : 422, answer);
    }
  }
}
