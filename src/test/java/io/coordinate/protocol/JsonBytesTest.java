package io.coordinate.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link JsonBytes} writes the bytes the mapper writes: the events' consumers see no difference. */
class JsonBytesTest {

    @Test
    void everyCharacterOfTheFirstPlanesIsWrittenAsTheMapperWritesIt() {
        List<String> strings = new ArrayList<>(List.of(
                "",
                "plain",
                "unit-0001",
                "with \"quotes\"",
                "back\\slash",
                "tab\there",
                "new\nline",
                "\u0000\u001f\u007f",
                "/slash/",
                "é ü ß",
                "日本語",
                "emoji \uD83D\uDE00 pair",
                "lone \uD800 high",
                "lone \uDC00 low",
                "\u2028\u2029"));
        for (char c = 0; c < 0x800; c++) {
            strings.add("a" + c + "z");
        }
        for (String text : strings) {
            byte[] mapper = Json.bytes(Json.object().put("a", 1).put("k", text));
            byte[] direct = new JsonBytes(4)
                    .punctuation('{')
                    .name(Json.encoded("a"))
                    .number(1)
                    .nextName(Json.encoded("k"))
                    .string(text)
                    .punctuation('}')
                    .toByteArray();
            assertThat(new String(direct, StandardCharsets.UTF_8))
                    .as("%s", text)
                    .isEqualTo(new String(mapper, StandardCharsets.UTF_8));
            assertThat(direct).as("%s", text).isEqualTo(mapper);
        }
    }

    @Test
    void numbersBooleansNullsAndTreesAsTheMapperWritesThem() {
        ObjectNode tree = Json.object();
        tree.putArray("list").add(1).add("two").addNull();
        List<JsonNode> values = List.of(
                IntNode.valueOf(0),
                IntNode.valueOf(7),
                IntNode.valueOf(-3),
                LongNode.valueOf(Long.MAX_VALUE),
                LongNode.valueOf(Long.MIN_VALUE),
                new BigIntegerNode(BigInteger.TEN.pow(30)),
                new BigIntegerNode(BigInteger.valueOf(42)),
                DoubleNode.valueOf(0.5),
                DoubleNode.valueOf(20.0),
                DecimalNode.valueOf(new BigDecimal("1.50")),
                Json.parse("true"),
                Json.parse("null"),
                Json.parse("\"s\""),
                tree);
        for (JsonNode value : values) {
            ArrayNode array = Json.MAPPER.createArrayNode().add(value);
            byte[] direct = new JsonBytes(4)
                    .punctuation('[')
                    .value(value)
                    .punctuation(']')
                    .toByteArray();
            assertThat(new String(direct, StandardCharsets.UTF_8))
                    .as("%s", value)
                    .isEqualTo(new String(Json.bytes(array), StandardCharsets.UTF_8));
        }
        for (long number : new long[] {
            0, 9, 10, -1, -10, 99, 100, 1234567890123L, Long.MAX_VALUE, Long.MIN_VALUE + 1, Long.MIN_VALUE
        }) {
            assertThat(new String(new JsonBytes(1).number(number).toByteArray(), StandardCharsets.UTF_8))
                    .isEqualTo(Long.toString(number));
            assertThat(new String(new JsonBytes(1).quotedNumber(number).toByteArray(), StandardCharsets.UTF_8))
                    .isEqualTo(new String(Json.bytes(TextNode.valueOf(Long.toString(number))), StandardCharsets.UTF_8));
        }
        assertThat(new String(
                        new JsonBytes(1)
                                .bool(true)
                                .punctuation(',')
                                .bool(false)
                                .punctuation(',')
                                .string(null)
                                .punctuation(',')
                                .quoted(null)
                                .toByteArray(),
                        StandardCharsets.UTF_8))
                .isEqualTo("true,false,null,null");
    }

    @Test
    void treesOfEveryKindAsTheMapperWritesThem() throws Exception {
        String[] documents = {
            "{}",
            "[]",
            "{\"i\":7}",
            "12345678901234567890123",
            "1.10",
            "1e400",
            "-0.0",
            "{\"a\":{\"b\":[1,2.5,{\"c\":null}],\"d\":false},\"e\":\"x\\\"y\\\\z\\n\\u0001\\u2028é😀\"}",
            "{\"\\u0000odd name\\\"\":1,\"ünïcode\":[[],{}],\"big\":123456789012345678901234567890.000001}",
            "[[[[{\"deep\":[true,false,null,\"\",-1]}]]]]"
        };
        List<JsonNode> trees = new ArrayList<>();
        for (String document : documents) {
            trees.add(Json.MAPPER.readTree(document));
        }
        ObjectNode built = Json.object();
        built.put("int", 7).put("long", Long.MIN_VALUE).put("double", 0.1).put("float", 1.5f);
        built.put("decimal", new BigDecimal("1.000")).put("integer", new BigInteger("99999999999999999999"));
        built.put("nan", Double.NaN).putNull("none").putPOJO("pojo", List.of(1, "two"));
        built.put("binary", new byte[] {1, 2, 3});
        trees.add(built);
        for (JsonNode tree : trees) {
            byte[] direct = new JsonBytes(4).value(tree).toByteArray();
            assertThat(new String(direct, StandardCharsets.UTF_8))
                    .as("%s", tree)
                    .isEqualTo(new String(Json.MAPPER.writeValueAsBytes(tree), StandardCharsets.UTF_8));
        }
    }
}
