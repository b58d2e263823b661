package io.coordinate.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The outputs' writer against the mapper it replaces on the hot path: the same bytes. */
class TreeWriterTest {

    @Test
    void writesWhatTheMapperWritesForEveryKindOfValue() throws Exception {
        String[] documents = {
            "{}",
            "[]",
            "null",
            "true",
            "\"\"",
            "0",
            "-12",
            "12345678901234567890123",
            "1.10",
            "1e400",
            "-0.0",
            "{\"a\":{\"b\":[1,2.5,{\"c\":null}],\"d\":false},\"e\":\"x\\\"y\\\\z\\n\\u0001\\u2028é😀\"}",
            "{\"namespace\":\"ns\",\"time\":\"2026-11-22T10:00:00.000Z\",\"events\":[{\"type\":\"unit_added\","
                    + "\"work_spec_name\":\"s\",\"work_unit_name\":\"u\",\"status\":\"available\",\"priority\":0}]}",
            "{\"\\u0000odd name\\\"\":1,\"ünïcode\":[[],{}],\"big\":123456789012345678901234567890.000001}"
        };
        for (String document : documents) {
            JsonNode node = Json.MAPPER.readTree(document);
            assertThat(text(Json.bytes(node))).as(document).isEqualTo(text(Json.MAPPER.writeValueAsBytes(node)));
        }
    }

    @Test
    void writesBuiltTreesWithJavaNumbersAsTheMapperDoes() throws Exception {
        ObjectNode node = Json.object();
        node.put("int", 7)
                .put("long", Long.MIN_VALUE)
                .put("double", 0.1)
                .put("float", 1.5f)
                .put("short", (short) 3);
        node.put("decimal", new BigDecimal("1.000")).put("integer", new BigInteger("99999999999999999999"));
        node.put("nan", Double.NaN).putNull("none").putPOJO("pojo", java.util.List.of(1, "two"));
        node.put("binary", new byte[] {1, 2, 3});
        assertThat(text(Json.bytes(node))).isEqualTo(text(Json.MAPPER.writeValueAsBytes(node)));
    }

    @Test
    void manyDistinctFieldNamesAreWrittenRightBeyondTheNamesItKeeps() throws Exception {
        SplittableRandom random = new SplittableRandom(5);
        ArrayNode list = Json.MAPPER.createArrayNode();
        for (int i = 0; i < 10_000; i++) {
            list.addObject().put("field-" + random.nextInt(1_000_000) + "\"\t", i);
        }
        assertThat(text(Json.bytes(list))).isEqualTo(text(Json.MAPPER.writeValueAsBytes(list)));
    }

    /** Bytes compared as text, so that a difference shows where it is. */
    private static String text(byte[] utf8) {
        return new String(utf8, StandardCharsets.UTF_8);
    }
}
