package io.coordinate.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The envelope checks of a record of {@code coordinate.commands}, with their stable error codes. */
class CommandParserTest {

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static CommandRejection rejection(String key, String value) {
        return catchThrowableOfType(
                CommandRejection.class, () -> CommandParser.parse(key, value == null ? null : bytes(value)));
    }

    @Test
    void parsesAWellFormedCommand() {
        Command command = CommandParser.parse(
                "ns",
                bytes(
                        "{\"command\":\"add_work_units\",\"namespace\":\"ns\","
                                + "\"request_id\":\"r-1\",\"reply_to\":\"client\",\"work_spec_name\":\"spec\",\"work_units\":[]}"));

        assertThat(command.type()).isEqualTo(CommandType.ADD_WORK_UNITS);
        assertThat(command.namespace()).isEqualTo("ns");
        assertThat(command.requestId()).isEqualTo("r-1");
        assertThat(command.replyTo()).isEqualTo("client");
        assertThat(command.requiredString("work_spec_name")).isEqualTo("spec");
        assertThat(command.requiredArray("work_units")).isEmpty();
    }

    @Test
    void optionalCorrelationFieldsMayBeAbsent() {
        Command command = CommandParser.parse("ns", bytes("{\"command\":\"destroy_namespace\",\"namespace\":\"ns\"}"));

        assertThat(command.requestId()).isNull();
        assertThat(command.replyTo()).isNull();
    }

    @Test
    void notJsonIsMalformedJson() {
        assertThat(rejection("ns", "not json").code()).isEqualTo(ErrorCode.MALFORMED_JSON);
        assertThat(rejection("ns", "{\"command\":").code()).isEqualTo(ErrorCode.MALFORMED_JSON);
        assertThat(rejection("ns", "{} {}").code()).as("trailing tokens").isEqualTo(ErrorCode.MALFORMED_JSON);
        assertThat(rejection("ns", "").code()).isEqualTo(ErrorCode.MALFORMED_JSON);
        assertThat(rejection("ns", null).code()).isEqualTo(ErrorCode.MALFORMED_JSON);
        assertThat(rejection("ns", null).getMessage()).isEqualTo("record has no value");
    }

    @Test
    void jsonThatIsNotAnObjectIsABadCommand() {
        CommandRejection e = rejection("ns", "[1, 2]");
        assertThat(e.code()).isEqualTo(ErrorCode.BAD_COMMAND);
        assertThat(e.getMessage()).isEqualTo("a command must be a JSON object");
    }

    @Test
    void unknownCommandIsUnknownCommand() {
        CommandRejection e = rejection("ns", "{\"command\":\"launch_rockets\",\"namespace\":\"ns\"}");
        assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_COMMAND);
        assertThat(e.getMessage()).isEqualTo("unknown command \"launch_rockets\"");
    }

    @Test
    void missingCommandOrNamespaceIsABadCommand() {
        CommandRejection noCommand = rejection("ns", "{\"namespace\":\"ns\"}");
        assertThat(noCommand.code()).isEqualTo(ErrorCode.BAD_COMMAND);
        assertThat(noCommand.getMessage()).isEqualTo("missing required field \"command\"");
        assertThat(rejection("ns", "{\"command\":7,\"namespace\":\"ns\"}").code())
                .isEqualTo(ErrorCode.BAD_COMMAND);

        CommandRejection noNamespace = rejection("ns", "{\"command\":\"destroy_namespace\"}");
        assertThat(noNamespace.code()).isEqualTo(ErrorCode.BAD_COMMAND);
        assertThat(noNamespace.getMessage()).isEqualTo("missing required field \"namespace\"");
        assertThat(rejection("ns", "{\"command\":\"destroy_namespace\",\"namespace\":null}")
                        .code())
                .isEqualTo(ErrorCode.BAD_COMMAND);
    }

    @Test
    void keyDifferentFromNamespaceIsANamespaceMismatch() {
        CommandRejection e = rejection("other", "{\"command\":\"destroy_namespace\",\"namespace\":\"ns\"}");
        assertThat(e.code()).isEqualTo(ErrorCode.NAMESPACE_MISMATCH);
        assertThat(e.getMessage()).isEqualTo("namespace \"ns\" differs from the record key \"other\"");
        assertThat(rejection(null, "{\"command\":\"destroy_namespace\",\"namespace\":\"ns\"}")
                        .code())
                .isEqualTo(ErrorCode.NAMESPACE_MISMATCH);
    }

    @Test
    void envelopeErrorsGoToTheDeadLetterTopicStateErrorsDoNot() {
        assertThat(ErrorCode.MALFORMED_JSON.deadLetter()).isTrue();
        assertThat(ErrorCode.BAD_COMMAND.deadLetter()).isTrue();
        assertThat(ErrorCode.UNKNOWN_COMMAND.deadLetter()).isTrue();
        assertThat(ErrorCode.NAMESPACE_MISMATCH.deadLetter()).isTrue();
        assertThat(ErrorCode.NO_SUCH_WORK_SPEC.deadLetter()).isFalse();
        assertThat(ErrorCode.LOST_LEASE.deadLetter()).isFalse();
    }

    @Test
    void replyToRequestIdAndCorrelationIdAreReadFromRecordsThatAreNotCommands() {
        byte[] unknown = bytes("{\"command\":\"launch_rockets\",\"reply_to\":\"client\",\"request_id\":\"r-9\","
                + "\"correlation_id\":\"c-3\"}");
        assertThat(CommandParser.readableReplyAddress(unknown))
                .isEqualTo(new CommandParser.ReplyAddress("client", "r-9", "c-3"));
        assertThat(CommandParser.readableReplyAddress(bytes("{\"reply_to\":\"client\",\"request_id\":7}")))
                .isEqualTo(new CommandParser.ReplyAddress("client", null, null));
        assertThat(CommandParser.readableReplyAddress(bytes("{\"request_id\":\"r-9\"}")))
                .isNull();
        assertThat(CommandParser.readableReplyAddress(bytes("not json"))).isNull();
        assertThat(CommandParser.readableReplyAddress(bytes("[\"reply_to\"]"))).isNull();
        assertThat(CommandParser.readableReplyAddress(null)).isNull();
    }

    /** A command whose units' data, each {@code blobBytes} of text, are {@code units} in number. */
    private static String addWithData(int units, int blobBytes) {
        StringBuilder command = new StringBuilder(
                "{\"command\":\"add_work_units\",\"namespace\":\"ns\",\"work_spec_name\":\"s\",\"work_units\":[");
        for (int i = 0; i < units; i++) {
            command.append(i == 0 ? "" : ",")
                    .append("{\"name\":\"u")
                    .append(i)
                    .append("\",\"data\":{\"b\":\"")
                    .append("x".repeat(blobBytes))
                    .append("\"}}");
        }
        return command.append("]}").toString();
    }

    @Test
    void aDataObjectOverTheLimitIsTooLarge() {
        // {"b":"x..."}: 8 bytes around the text
        CommandRejection rejection = rejection("ns", addWithData(2, DataLimit.MAX_DATA_BYTES - 7));

        assertThat(rejection.code()).isEqualTo(ErrorCode.TOO_LARGE);
        assertThat(rejection.getMessage()).isEqualTo("\"work_units[0].data\" is 262145 bytes of JSON; at most 262144");
    }

    @Test
    void aLargeCommandWhoseDataObjectsAreEachWithinTheLimitIsParsed() {
        String large = addWithData(3, DataLimit.MAX_DATA_BYTES - 8); // each exactly at the limit
        assertThat(large.length()).isGreaterThan(3 * DataLimit.MAX_DATA_BYTES);

        Command command = CommandParser.parse("ns", bytes(large));

        assertThat(command.requiredArray("work_units")).hasSize(3);
    }

    @Test
    void aKeyThatIsNotUtf8IsANamespaceMismatchEvenWithTheReplacementCharacterAsNamespace() {
        for (byte[] key :
                new byte[][] {{(byte) 0xff}, {(byte) 0xfe}, {'n', (byte) 0xc3}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80}
                }) {
            CommandRejection e = catchThrowableOfType(
                    CommandRejection.class,
                    () -> CommandParser.parse(
                            key, bytes("{\"command\":\"destroy_namespace\",\"namespace\":\"\\ufffd\"}")));
            assertThat(e.code()).isEqualTo(ErrorCode.NAMESPACE_MISMATCH);
            assertThat(e.getMessage()).isEqualTo("the record key is not valid UTF-8");
        }
        assertThat(CommandParser.parse(
                                bytes("\u00e9"), bytes("{\"command\":\"destroy_namespace\",\"namespace\":\"\u00e9\"}"))
                        .namespace())
                .isEqualTo("\u00e9");
        CommandRejection malformed = catchThrowableOfType(
                CommandRejection.class, () -> CommandParser.parse(new byte[] {(byte) 0xff}, bytes("{oops")));
        assertThat(malformed.code())
                .as("a malformed value is malformed_json, whatever its key")
                .isEqualTo(ErrorCode.MALFORMED_JSON);
    }

    @Test
    void anEmptyNamespaceIsABadCommand() {
        CommandRejection e = rejection("", "{\"command\":\"destroy_namespace\",\"namespace\":\"\"}");
        assertThat(e.code()).isEqualTo(ErrorCode.BAD_COMMAND);
        assertThat(e.getMessage()).isEqualTo("\"namespace\" must not be empty");
    }

    @Test
    void aNumberJacksonCannotHoldIsMalformedJsonNotAnExceptionOutOfTheParser() {
        CommandRejection e =
                rejection("ns", "{\"command\":\"destroy_namespace\",\"namespace\":\"ns\",\"n\":1E+9999999997}");
        assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_JSON);
        assertThat(e.getMessage()).startsWith("value is not JSON: Value \"1E+9999999997\" can not be deserialized");
    }

    @Test
    void aStringWithAnUnpairedSurrogateIsABadCommand() {
        for (String escaped : new String[] {"\\ud800", "a\\udc00b", "\\ud800\\ud800"}) {
            CommandRejection e = rejection(
                    "ns", "{\"command\":\"worker_heartbeat\",\"namespace\":\"ns\",\"worker\":\"" + escaped + "\"}");
            assertThat(e.code()).as(escaped).isEqualTo(ErrorCode.BAD_COMMAND);
            assertThat(e.getMessage())
                    .as(escaped)
                    .matches("a string holds an unpaired surrogate \\(\\\\ud[89abcdef]00\\), which is "
                            + "not a character");
        }
        CommandRejection nested = rejection(
                "ns",
                "{\"command\":\"worker_heartbeat\",\"namespace\":\"ns\",\"worker\":\"w\","
                        + "\"data\":{\"k\":[\"\\udfff\"]}}");
        assertThat(nested.getMessage())
                .isEqualTo("a string holds an unpaired surrogate (\\udfff), which is not a character");
        assertThat(rejection(
                                "ns",
                                "{\"command\":\"worker_heartbeat\",\"namespace\":\"ns\",\"worker\":\"w\","
                                        + "\"data\":{\"\\udfff\":1}}")
                        .code())
                .as("in a field name, Jackson refuses it")
                .isEqualTo(ErrorCode.MALFORMED_JSON);
        Command pair = CommandParser.parse(
                "ns",
                bytes("{\"command\":\"worker_heartbeat\",\"namespace\":\"ns\"," + "\"worker\":\"\\ud83d\\ude00\"}"));
        assertThat(pair.requiredString("worker")).isEqualTo("\ud83d\ude00");
    }

    private static byte[] concat(byte[] first, byte[] second) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(first);
        out.writeBytes(second);
        return out.toByteArray();
    }

    /** Jackson would read each of these as the command below: it skips a UTF-8 BOM and detects UTF-16 and UTF-32. */
    @Test
    void aValueWithAByteOrderMarkOrInUtf16OrUtf32IsMalformedJson() {
        String json = "{\"command\":\"destroy_namespace\",\"namespace\":\"ns\",\"reply_to\":\"c\"}";
        Charset utf32be = Charset.forName("UTF-32BE");
        Charset utf32le = Charset.forName("UTF-32LE");
        String bom = "starts with a byte order mark (EF BB BF): the value must be UTF-8 without one";
        String wideBom = "starts with a UTF-16 or UTF-32 byte order mark: the value must be UTF-8";
        String zero = "a zero byte in its first four bytes (UTF-16 or UTF-32?): the value must be UTF-8";
        Map<String, Object[]> cases = new LinkedHashMap<>();
        cases.put("UTF-8 with a BOM", new Object[] {
            concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, json.getBytes(StandardCharsets.UTF_8)), bom
        });
        cases.put("UTF-16 with a BOM", new Object[] {json.getBytes(StandardCharsets.UTF_16), wideBom});
        cases.put("UTF-16LE with a BOM", new Object[] {
            concat(new byte[] {(byte) 0xFF, (byte) 0xFE}, json.getBytes(StandardCharsets.UTF_16LE)), wideBom
        });
        cases.put("UTF-16BE", new Object[] {json.getBytes(StandardCharsets.UTF_16BE), zero});
        cases.put("UTF-16LE", new Object[] {json.getBytes(StandardCharsets.UTF_16LE), zero});
        cases.put("UTF-16LE after a space", new Object[] {(" " + json).getBytes(StandardCharsets.UTF_16LE), zero});
        cases.put("UTF-32BE", new Object[] {json.getBytes(utf32be), zero});
        cases.put("UTF-32LE", new Object[] {json.getBytes(utf32le), zero});
        cases.put("UTF-32BE with a BOM", new Object[] {("\ufeff" + json).getBytes(utf32be), zero});
        cases.put("UTF-32LE with a BOM", new Object[] {("\ufeff" + json).getBytes(utf32le), wideBom});
        cases.forEach((name, value) -> {
            byte[] bytes = (byte[]) value[0];
            CommandRejection e = catchThrowableOfType(CommandRejection.class, () -> CommandParser.parse("ns", bytes));
            assertThat(e).as(name).isNotNull();
            assertThat(e.code()).as(name).isEqualTo(ErrorCode.MALFORMED_JSON);
            assertThat(e.getMessage()).as(name).isEqualTo("value is not JSON: " + value[1]);
            assertThatThrownBy(() -> Json.parse(bytes))
                    .as(name + ": nothing is read from it, reply_to neither")
                    .isInstanceOf(IOException.class)
                    .hasMessage((String) value[1]);
        });
        assertThat(CommandParser.parse("ns", bytes(json)).replyTo()).isEqualTo("c");
        assertThat(CommandParser.parse("ns", bytes(json.substring(0, json.length() - 1) + ",\"x\":\"\ufeff\"}"))
                        .get("x")
                        .textValue())
                .as("U+FEFF inside a string is a character like any other")
                .isEqualTo("\ufeff");
    }
}
