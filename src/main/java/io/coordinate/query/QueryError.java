package io.coordinate.query;

/**
 * An HTTP error answer, thrown by a route and turned into {@code {"error": {"code", "message"}}} by the
 * server: one place decides the shape of every error body.
 */
final class QueryError extends RuntimeException {

    private final int status;
    private final String code;
    private final boolean retryLater;

    QueryError(int status, String code, String message, boolean retryLater) {
        super(message, null, false, false); // an answer, not a failure: no stack trace needed
        this.status = status;
        this.code = code;
        this.retryLater = retryLater;
    }

    static QueryError notFound(String code, String message) {
        return new QueryError(404, code, message, false);
    }

    static QueryError badRequest(String code, String message) {
        return new QueryError(400, code, message, false);
    }

    /** 401: a mutation without the configured bearer token ({@link BearerToken}). */
    static QueryError unauthorized(String message) {
        return new QueryError(401, "unauthorized", message, false);
    }

    /** 503 with {@code Retry-After}: the state is moving (a rebalance); the client asks again instead of us waiting. */
    static QueryError unavailable(String message) {
        return new QueryError(503, "unavailable", message, true);
    }

    int status() {
        return status;
    }

    String code() {
        return code;
    }

    boolean retryLater() {
        return retryLater;
    }
}
