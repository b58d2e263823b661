package io.coordinate.engine.state.model;

/**
 * A token bucket on the engine's clock: it gains {@code max / per_seconds} tokens a second up to its capacity
 * {@code burst}, and each attempt started takes one (docs/reference.md#rate-limits). Pure: only the {@code now}
 * given is read, so a replay of the same commands grants the same tokens. Its state is {@link #tokens()} as of
 * {@link #updated()}; a bucket never seen before starts full.
 */
public final class TokenBucket {

    /**
     * Tokens are doubles: a sum of refills may land a hair below a whole number it reaches exactly in decimal. Within
     * this much of it, the token counts as whole.
     */
    private static final double ROUNDING = 1e-9;

    private final RateLimit limit;
    private double tokens;
    private long updated;

    private TokenBucket(RateLimit limit, double tokens, long updated) {
        this.limit = limit;
        this.tokens = tokens;
        this.updated = updated;
    }

    /** A bucket at capacity, as a spec's first is. */
    public static TokenBucket full(RateLimit limit, long now) {
        return new TokenBucket(limit, limit.burst(), now);
    }

    /** A bucket that held {@code tokens} at {@code updated} (epoch millis). */
    public static TokenBucket of(RateLimit limit, double tokens, long updated) {
        return new TokenBucket(limit, tokens, updated);
    }

    /** The tokens as of the last change: what is stored. */
    public double tokens() {
        return tokens;
    }

    /** When the tokens were last counted, epoch millis. */
    public long updated() {
        return updated;
    }

    /** The tokens at {@code now}, fractions included, refilled since {@link #updated()} and capped at the burst. */
    public double tokensAt(long now) {
        long elapsed = Math.max(0, now - updated);
        // multiply before dividing: whole refills (50 ms at 20 a second) come out exact
        double refilled = tokens + elapsed * (double) limit.max() / limit.windowMillis();
        return Math.min(limit.burst(), refilled);
    }

    /** The whole tokens at {@code now}: how many attempts may start. */
    public long wholeTokensAt(long now) {
        return (long) Math.floor(tokensAt(now) + ROUNDING);
    }

    /** Takes up to {@code wanted} whole tokens at {@code now}; returns how many it took. */
    public long take(long now, long wanted) {
        double available = tokensAt(now);
        long granted = Math.max(0, Math.min(wanted, wholeTokensAt(now)));
        tokens = Math.max(0, available - granted);
        updated = Math.max(updated, now);
        return granted;
    }

    /** When the bucket holds a whole token again, epoch millis: {@code now} if it holds one now. */
    public long nextTokenAt(long now) {
        double missing = 1 - tokensAt(now);
        if (wholeTokensAt(now) >= 1) {
            return now;
        }
        long wait = (long) Math.max(1, Math.ceil((missing - ROUNDING) * limit.windowMillis() / limit.max()));
        // the estimate may miss by a rounding: the answer is the first millisecond at which a take would get one
        while (wholeTokensAt(now + wait) < 1) {
            wait++;
        }
        while (wait > 1 && wholeTokensAt(now + wait - 1) >= 1) {
            wait--;
        }
        return now + wait;
    }
}
