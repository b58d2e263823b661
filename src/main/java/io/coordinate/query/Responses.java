package io.coordinate.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import io.javalin.http.Context;

/** Writes JSON answers with the one wire mapper ({@link Json#MAPPER}), never Javalin's own. */
final class Responses {

    static final String JSON = "application/json";

    /** Seconds a client should wait before asking again while state is unavailable. */
    static final String RETRY_AFTER_SECONDS = "1";

    private Responses() {}

    static void json(Context ctx, int status, JsonNode body) {
        ctx.status(status).contentType(JSON).result(Json.bytes(body));
    }

    /**
     * The code of an error that Jetty or Javalin answers by its status alone (a malformed request, an unknown route, a
     * body over the limit): the same codes as the API's own answers where they overlap.
     */
    static String codeFor(int status) {
        return switch (status) {
            case 400 -> "bad_request";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 413 -> "body_too_large";
            case 414 -> "uri_too_long";
            case 415 -> "unsupported_media_type";
            case 431 -> "headers_too_large";
            case 500 -> "internal_error";
            case 505 -> "http_version_not_supported";
            default -> "http_" + status;
        };
    }

    static ObjectNode error(String code, String message) {
        ObjectNode body = Json.object();
        ObjectNode error = body.putObject("error");
        error.put("code", code);
        error.put("message", message);
        return body;
    }

    static void error(Context ctx, QueryError e) {
        if (e.retryLater()) {
            ctx.header("Retry-After", RETRY_AFTER_SECONDS);
        }
        json(ctx, e.status(), error(e.code(), e.getMessage()));
    }
}
