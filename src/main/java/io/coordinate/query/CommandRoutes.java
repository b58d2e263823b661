package io.coordinate.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
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
 * body's {@code namespace} defaults to the path's; a different one is 400 {@code namespace_mismatch}. Any
 * instance can submit: no forwarding. A body over {@link #MAX_BODY_BYTES} is 413 {@code body_too_large}.
 *
 * <p>The caller's key, the body's {@code request_id} or the {@code Idempotency-Key} header (400
 * {@code request_id_mismatch} when both are given and differ), goes to the app as the {@code request_id}, with the
 * {@code requester} {@value #REQUESTER}: every instance sends a caller's key as the same requester's, so a repeat
 * gets the first answer whichever instance takes it. The gateway sets its own {@code reply_to} and
 * {@code correlation_id} to match the reply; the answer carries the caller's key back (null when it gave none).
 */
final class CommandRoutes {

    /** The requester of every caller's key over HTTP: the callers of all instances share one scope of keys. */
    static final String REQUESTER = "http";

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    /** The longest key taken, as other APIs with idempotency keys allow: a key is an id, not data. */
    static final int MAX_KEY_LENGTH = 255;
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
            throw QueryError.badRequest(
                    "namespace_mismatch", "command namespace " + given + " differs from the path's \"" + ns + "\"");
        }
        String key = key(ctx, command);
        command.remove("correlation_id"); // the gateway's own
        if (key == null) {
            command.remove("request_id");
            command.remove("requester");
        } else {
            command.put("request_id", key);
            command.put("requester", REQUESTER);
        }
        CompletableFuture<ObjectNode> reply;
        try {
            reply = gateway.submit(ns, command, timeout);
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        CompletableFuture<ObjectNode> pending = reply;
        ctx.future(() -> pending.handleAsync((answer, failure) -> { // off the Kafka poll and timer threads
            respond(ctx, answer, failure, key);
            return null;
        }));
    }

    /** The caller's key: the {@code Idempotency-Key} header or the body's {@code request_id}; null for none. */
    private static String key(Context ctx, ObjectNode command) {
        JsonNode field = command.get("request_id");
        if (field != null && !field.isNull() && !field.isTextual()) {
            throw QueryError.badRequest("bad_command", "\"request_id\" must be a string");
        }
        String fromBody = field == null || field.isNull() ? null : field.textValue();
        String header = ctx.header(IDEMPOTENCY_KEY);
        if (header != null && fromBody != null && !header.equals(fromBody)) {
            throw QueryError.badRequest(
                    "request_id_mismatch",
                    IDEMPOTENCY_KEY + " " + TextNode.valueOf(header) + " differs from the body's request_id "
                            + TextNode.valueOf(fromBody));
        }
        String key = header != null ? header : fromBody;
        if (key != null && (key.isEmpty() || key.length() > MAX_KEY_LENGTH)) {
            String message = " must be 1 to " + MAX_KEY_LENGTH + " characters long";
            throw header != null
                    ? QueryError.badRequest("bad_request", IDEMPOTENCY_KEY + message)
                    : QueryError.badRequest("bad_command", "\"request_id\"" + message);
        }
        return key;
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

    private void respond(Context ctx, ObjectNode reply, Throwable failure, String key) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof TimeoutException) {
            Responses.json(
                    ctx,
                    504,
                    Responses.error(
                            "timeout",
                            "no reply within " + timeout.toMillis() + " ms; the command may still be applied"));
        } else if (cause != null) {
            Responses.json(ctx, 502, Responses.error("gateway_error", "the command could not be submitted: " + cause));
        } else {
            ObjectNode answer = reply.deepCopy();
            answer.remove("correlation_id");
            JsonNode clientId = key == null ? Json.MAPPER.nullNode() : TextNode.valueOf(key);
            // Without a key, the gateway's own request id also shows inside an assignment: give null back there too.
            if (answer.path("result").isObject()
                    && answer.get("result").has("request_id")
                    && answer.get("result").get("request_id").equals(reply.get("request_id"))) {
                ((ObjectNode) answer.get("result")).set("request_id", clientId);
            }
            answer.set("request_id", clientId);
            Responses.json(ctx, answer.path("ok").asBoolean(false) ? 200 : 422, answer);
        }
    }
}
