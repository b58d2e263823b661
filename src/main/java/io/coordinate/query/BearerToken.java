package io.coordinate.query;

import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The HTTP API's one credential: with a token configured, every request that may change something (any method but
 * GET, HEAD and OPTIONS, a browser's CORS preflight, which carries no credentials) must carry {@code Authorization:
 * Bearer <token>}; reads stay open, but for the feeds when the instance is told so ({@link #require}). The comparison
 * takes the same time whatever the guess: both sides are hashed first, so neither a common prefix nor the length
 * shows.
 */
final class BearerToken {

    static final String HEADER = "Authorization";
    private static final String SCHEME = "Bearer ";

    private final String token;
    private final byte[] digest;

    BearerToken(String token) {
        if (token == null || token.isEmpty()) {
            throw new IllegalArgumentException("an empty token would let anyone in");
        }
        this.token = token;
        this.digest = sha256(token);
    }

    /** The header value that carries this token (forwarding between instances sends it along). */
    String headerValue() {
        return SCHEME + token;
    }

    /** A Javalin before-handler: 401 {@code unauthorized} for a mutation without this token. */
    void authorize(Context ctx) {
        if (RequestGuard.isMutation(ctx.method())) {
            require(ctx, ctx.method() + " requests");
        }
    }

    /** 401 {@code unauthorized} unless the request carries this token, whatever its method; {@code what} it is for. */
    void require(Context ctx, String what) {
        String header = ctx.header(HEADER);
        if (header == null || !header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            ctx.header("WWW-Authenticate", "Bearer");
            throw QueryError.unauthorized(
                    "this instance needs the header \"Authorization: Bearer <token>\" for " + what);
        }
        if (!MessageDigest.isEqual(
                digest, sha256(header.substring(SCHEME.length()).strip()))) {
            ctx.header("WWW-Authenticate", "Bearer error=\"invalid_token\"");
            throw QueryError.unauthorized("the bearer token is not this instance's");
        }
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
