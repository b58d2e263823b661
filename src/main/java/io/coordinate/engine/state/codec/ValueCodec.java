package io.coordinate.engine.state.codec;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.dataformat.smile.databind.SmileMapper;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.RateLimit;
import io.coordinate.engine.state.model.TokenBucket;
import io.coordinate.engine.state.model.WorkUnitRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * Stored values: records in Smile (binary JSON: compact, fast, and the same data model as the wire's JSON,
 * so unit data round-trips exactly), counters as 8 big-endian bytes. Units and attempts, read and written by
 * every command, are in the cheaper field-by-field form of {@link BinaryRecords}; those stored in Smile by
 * earlier versions still read.
 */
public final class ValueCodec {

    static final ObjectMapper SMILE = SmileMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();

    public static final byte[] EMPTY = new byte[0];

    private ValueCodec() {}

    public static byte[] encode(Object value) {
        if (value instanceof WorkUnitRecord unit) {
            return BinaryRecords.encode(unit);
        }
        if (value instanceof AttemptRecord attempt) {
            return BinaryRecords.encode(attempt);
        }
        return encodeSmile(value);
    }

    /** The Smile form of any value: for the other records, and what earlier versions wrote for all of them. */
    public static byte[] encodeSmile(Object value) {
        try {
            return SMILE.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static <T> T decode(byte[] bytes, Class<T> type) {
        if (bytes == null) {
            return null;
        }
        if (UnitValue.hasAttempt(bytes)) {
            bytes = UnitValue.unit(bytes); // a unit's value with its latest attempt: the unit part
        }
        if (BinaryRecords.isBinary(bytes)) {
            return BinaryRecords.decode(bytes, type);
        }
        try {
            return SMILE.readValue(bytes, type);
        } catch (IOException e) {
            throw new UncheckedIOException("corrupt " + type.getSimpleName() + " value", e);
        }
    }

    public static byte[] encodeLong(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }

    public static long decodeLong(byte[] bytes) {
        return bytes == null ? 0 : ByteBuffer.wrap(bytes).getLong();
    }

    /** A token bucket's state: its tokens (a double's bits) then when they were counted. */
    public static byte[] encodeTokens(TokenBucket bucket) {
        return ByteBuffer.allocate(16)
                .putDouble(bucket.tokens())
                .putLong(bucket.updated())
                .array();
    }

    /** The bucket of {@code limit} stored as {@code bytes}; a full one at {@code now} when none is stored. */
    public static TokenBucket decodeTokens(byte[] bytes, RateLimit limit, long now) {
        if (bytes == null) {
            return TokenBucket.full(limit, now);
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        return TokenBucket.of(limit, buffer.getDouble(), buffer.getLong());
    }
}
