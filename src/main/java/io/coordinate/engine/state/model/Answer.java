package io.coordinate.engine.state.model;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * What a command with a {@code request_id} answered, kept (key {@code AnswerKeys.answer}) until {@link #expiresAt} so that
 * a repeat of it gets the same answer and changes nothing. Kept as little as makes the answer again: the attempts a
 * {@code request_attempts} handed out (numbers, mostly consecutive, as ranges) or the attempt an attempt command
 * named, whose views are written again from the state; any other reply's result as its JSON.
 *
 * <p>Stored as {@code [kind][expires_at][...]}: {@code RESULT} the result's JSON bytes, {@code ATTEMPT} one attempt
 * number, {@code ATTEMPTS} a count of ranges and each range's first number and length.
 */
public final class Answer {

    public enum Kind {
        RESULT,
        ATTEMPT,
        ATTEMPTS
    }

    private static final byte RESULT = 1;
    private static final byte ATTEMPT = 2;
    private static final byte ATTEMPTS = 3;

    private final long expiresAt;
    private final Kind kind;
    private final byte[] resultJson;
    private final long[] attemptSeqs;

    private Answer(long expiresAt, Kind kind, byte[] resultJson, long[] attemptSeqs) {
        this.expiresAt = expiresAt;
        this.kind = kind;
        this.resultJson = resultJson;
        this.attemptSeqs = attemptSeqs;
    }

    /** A reply whose result is this JSON. */
    public static Answer result(long expiresAt, byte[] resultJson) {
        return new Answer(expiresAt, Kind.RESULT, resultJson, null);
    }

    /** The view of one attempt (renew, finish, fail, retry, expire). */
    public static Answer attempt(long expiresAt, long seq) {
        return new Answer(expiresAt, Kind.ATTEMPT, null, new long[] {seq});
    }

    /** An assignment of these attempts, in this order. */
    public static Answer attempts(long expiresAt, long[] seqs) {
        return new Answer(expiresAt, Kind.ATTEMPTS, null, seqs.clone());
    }

    /** This answer, kept until {@code time}. */
    public Answer expiringAt(long time) {
        return new Answer(time, kind, resultJson, attemptSeqs);
    }

    public long expiresAt() {
        return expiresAt;
    }

    public Kind kind() {
        return kind;
    }

    public byte[] resultJson() {
        return resultJson;
    }

    public long attemptSeq() {
        return attemptSeqs[0];
    }

    public long[] attemptSeqs() {
        return attemptSeqs.clone();
    }

    public byte[] encode() {
        return switch (kind) {
            case RESULT ->
                ByteBuffer.allocate(9 + resultJson.length)
                        .put(RESULT)
                        .putLong(expiresAt)
                        .put(resultJson)
                        .array();
            case ATTEMPT ->
                ByteBuffer.allocate(17)
                        .put(ATTEMPT)
                        .putLong(expiresAt)
                        .putLong(attemptSeqs[0])
                        .array();
            case ATTEMPTS -> {
                int ranges = 0;
                for (int i = 0; i < attemptSeqs.length; i++) {
                    if (i == 0 || attemptSeqs[i] != attemptSeqs[i - 1] + 1) {
                        ranges++;
                    }
                }
                ByteBuffer out = ByteBuffer.allocate(13 + 12 * ranges)
                        .put(ATTEMPTS)
                        .putLong(expiresAt)
                        .putInt(ranges);
                for (int i = 0; i < attemptSeqs.length; ) {
                    int length = 1;
                    while (i + length < attemptSeqs.length && attemptSeqs[i + length] == attemptSeqs[i] + length) {
                        length++;
                    }
                    out.putLong(attemptSeqs[i]).putInt(length);
                    i += length;
                }
                yield out.array();
            }
        };
    }

    public static Answer decode(byte[] stored) {
        if (stored == null) {
            return null;
        }
        ByteBuffer in = ByteBuffer.wrap(stored);
        byte kind = in.get();
        long expiresAt = in.getLong();
        return switch (kind) {
            case RESULT -> result(expiresAt, Arrays.copyOfRange(stored, 9, stored.length));
            case ATTEMPT -> attempt(expiresAt, in.getLong());
            case ATTEMPTS -> {
                int ranges = in.getInt();
                long[] seqs = new long[0];
                int n = 0;
                for (int r = 0; r < ranges; r++) {
                    long first = in.getLong();
                    int length = in.getInt();
                    seqs = Arrays.copyOf(seqs, n + length);
                    for (int i = 0; i < length; i++) {
                        seqs[n++] = first + i;
                    }
                }
                yield new Answer(expiresAt, Kind.ATTEMPTS, null, seqs);
            }
            default -> throw new IllegalStateException("unknown answer kind " + kind);
        };
    }

    /** When a stored answer expires, without decoding the rest. */
    public static long expiresAt(byte[] stored) {
        return ByteBuffer.wrap(stored, 1, 8).getLong();
    }
}
