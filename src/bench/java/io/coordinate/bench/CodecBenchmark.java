package io.coordinate.bench;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.dataformat.smile.databind.SmileMapper;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.protocol.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Function;

/**
 * What a stored unit and attempt cost to encode and decode: the Smile form that earlier versions wrote against
 * the binary form of {@code ValueCodec} today, on a typical pending unit and its attempt (~100 bytes of JSON
 * data). Both are decoded through {@link ValueCodec#decode}, which reads either. One thread; each figure is the
 * best of a few rounds after a warm-up, as other processes may share the CPU. A rough measure, not a test.
 *
 * <p>Usage: {@code CodecBenchmark [iterations]} (default 2,000,000 encodes and as many decodes per record and
 * format).
 */
public final class CodecBenchmark {

    private static final int ROUNDS = 3;

    /** Configured as ValueCodec's mapper, whose Smile is what the unit and attempt records were stored in. */
    private static final ObjectMapper SMILE = SmileMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();

    private static long sink; // keeps the JIT from dropping the work

    private CodecBenchmark() {}

    public static void main(String[] args) {
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        JsonNode data = Json.parse("{\"url\":\"https://example.com/i/48151623\",\"size\":4096,\"weight\":1.25,"
                + "\"tags\":[\"thumbnail\",\"jpeg\"],\"retry\":false}");
        WorkUnitRecord unit = WorkUnitRecord.builder("thumbnails", "item-48151623")
                .data(data)
                .priority(0.5)
                .status(UnitStatus.PENDING)
                .activeAttempt(1_234_567L)
                .attemptCount(1)
                .build();
        AttemptRecord attempt = new AttemptRecord(
                1_234_567L,
                "thumbnails",
                "item-48151623",
                "worker-42",
                AttemptStatus.PENDING,
                data,
                1_790_000_000_000L,
                1_790_000_900_000L,
                null,
                null,
                null);

        System.out.printf(
                "JSON data of %d bytes; %,d encodes and decodes per record and format, best of %d rounds%n",
                data.toString().length(), iterations, ROUNDS);
        System.out.printf(
                "%-14s %-7s %6s %10s %10s %16s%n",
                "record", "format", "bytes", "encode ns", "decode ns", "encode+decode/s");
        compare("WorkUnitRecord", unit, WorkUnitRecord.class, iterations);
        compare("AttemptRecord", attempt, AttemptRecord.class, iterations);
    }

    private static <T> void compare(String label, T record, Class<T> type, int iterations) {
        byte[] smile = smile(record);
        byte[] binary = ValueCodec.encode(record);
        if (!ValueCodec.decode(smile, type).equals(ValueCodec.decode(binary, type))) {
            throw new IllegalStateException(label + " reads back differently from the two formats");
        }
        Function<T, byte[]> smileEncoder = CodecBenchmark::smile;
        Function<T, byte[]> binaryEncoder = ValueCodec::encode;
        double[] smileNanos = {Double.MAX_VALUE, Double.MAX_VALUE};
        double[] binaryNanos = {Double.MAX_VALUE, Double.MAX_VALUE};
        for (int round = -1; round < ROUNDS; round++) { // round -1: the warm-up, not counted
            int count = round < 0 ? iterations / 4 : iterations / ROUNDS;
            best(smileNanos, encodeNanos(record, smileEncoder, count), decodeNanos(smile, type, count));
            best(binaryNanos, encodeNanos(record, binaryEncoder, count), decodeNanos(binary, type, count));
        }
        double smileRate = 1e9 / (smileNanos[0] + smileNanos[1]);
        double binaryRate = 1e9 / (binaryNanos[0] + binaryNanos[1]);
        System.out.printf(
                "%-14s %-7s %6d %10.0f %10.0f %16.0f%n",
                label, "Smile", smile.length, smileNanos[0], smileNanos[1], smileRate);
        System.out.printf(
                "%-14s %-7s %6d %10.0f %10.0f %16.0f   x%.2f%n",
                label, "binary", binary.length, binaryNanos[0], binaryNanos[1], binaryRate, binaryRate / smileRate);
    }

    private static void best(double[] nanos, double encode, double decode) {
        nanos[0] = Math.min(nanos[0], encode);
        nanos[1] = Math.min(nanos[1], decode);
    }

    private static <T> double encodeNanos(T record, Function<T, byte[]> encoder, int count) {
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            sink += encoder.apply(record).length;
        }
        return (System.nanoTime() - start) / (double) count;
    }

    private static double decodeNanos(byte[] value, Class<?> type, int count) {
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            sink += ValueCodec.decode(value, type) == null ? 0 : 1;
        }
        return (System.nanoTime() - start) / (double) count;
    }

    private static byte[] smile(Object value) {
        try {
            return SMILE.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
