package io.coordinate.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.CommandType;
import io.coordinate.protocol.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A seeded generator of hostile records for {@code coordinate.commands}: valid commands of every {@link CommandType},
 * mutated (a field given a wrong type, an out-of-range or non-finite number, a huge or non-Unicode string; a field
 * dropped or added; the command renamed; the key changed, emptied or made invalid UTF-8), and then, for some, their
 * bytes (truncated, a byte changed, a key duplicated, deep nesting, random bytes). The same seed gives the same
 * records, so a failure is replayed from the seed and the index that the test prints.
 */
public final class CommandFuzzer {

    /** The namespace the templates use; the seed state of the tests lives there. */
    public static final String NAMESPACE = "ns";

    /** One record: its key and value bytes, and what was done to them (for the failure message). */
    public record Input(byte[] key, byte[] value, String how) {

        public String describe() {
            String text = value == null ? "null" : new String(value, StandardCharsets.UTF_8);
            String keyText = key == null ? "null" : new String(key, StandardCharsets.UTF_8);
            return printable(how) + " key=" + printable(cut(keyText)) + " value=" + printable(cut(text));
        }

        private static String cut(String text) {
            return text.length() <= 600 ? text : text.substring(0, 600) + "...(" + text.length() + " chars)";
        }

        /** Control and non-ASCII characters as {@code \\uXXXX}, so that the report shows them. */
        private static String printable(String text) {
            StringBuilder out = new StringBuilder(text.length());
            for (char c : text.toCharArray()) {
                if (c < 32 || c > 126) {
                    out.append(String.format("\\u%04x", (int) c));
                } else {
                    out.append(c);
                }
            }
            return out.toString();
        }
    }

    private static final String HUGE = "x".repeat(64 * 1024);
    private static final String DEEP_ARRAY = "[".repeat(5_000) + "]".repeat(5_000);
    private static final String DEEP_OBJECT = "{\"a\":".repeat(2_000) + "1" + "}".repeat(2_000);

    /** Values of every JSON type, and of the edges of every range; given to fields at random. */
    private static final List<String> EVIL = List.of(
            "null",
            "true",
            "false",
            "\"\"",
            "\"x\"",
            "\"s1\"",
            "\"u1\"",
            "\"1\"",
            "\"w1\"",
            "\"ns\"",
            "0",
            "-0",
            "1",
            "-1",
            "0.5",
            "1e-9",
            "-1e-9",
            "1e300",
            "-1e300",
            "1e400",
            "-1e400",
            "1e999999999",
            "1e-999999999",
            "2147483647",
            "2147483648",
            "-2147483649",
            "9223372036854775807",
            "9223372036854775808",
            "1" + "0".repeat(900),
            "0." + "0".repeat(900) + "1",
            "1.0000000000000000000000001",
            "31536000",
            "31536001",
            "2592000",
            "2592001",
            "1e15",
            "1000000000000001",
            "\"NaN\"",
            "\"Infinity\"",
            "\"\\ud800\"",
            "\"a\\udc00b\"",
            "\"\\u0000\"",
            "\"\\uffff\"",
            "\"\\ud83d\\ude00\"",
            "\"2026-11-22T10:00:00Z\"",
            "\"+10000-01-01T00:00:00Z\"",
            "\"+999999999-12-31T23:59:59Z\"",
            "\"-999999999-01-01T00:00:00Z\"",
            "\"0000-01-01T00:00:00Z\"",
            "\"yesterday\"",
            "[]",
            "{}",
            "[1]",
            "[\"s1\"]",
            "[\"available\",\"nope\"]",
            "[null]",
            "{\"a\":1}",
            "{\"work_spec_name\":\"s1\",\"work_unit_name\":\"u1\"}",
            "{\"work_unit_name\":7}",
            "[[[[[[[[[[1]]]]]]]]]]",
            "{\"output\":{\"n1\":{},\"n2\":7}}",
            "{\"output\":[\"o1\",[\"o2\",{},{\"delay\":1e300,\"priority\":1e400},1e400]]}",
            "{\"output\":[[\"o3\",{},{\"delay\":-5}],[1,2],[\"\",null,null,null]]}",
            "{\"result\":1e400}");

    private static final List<String> FIELDS = List.of(
            "command",
            "namespace",
            "request_id",
            "reply_to",
            "work_spec_name",
            "work_spec",
            "meta",
            "work_units",
            "query",
            "priority",
            "adjustment",
            "worker",
            "count",
            "lifetime",
            "work_specs",
            "runtimes",
            "available_gb",
            "attempt_id",
            "extend",
            "data",
            "attempts",
            "delay",
            "parent",
            "mode",
            "expire",
            "name",
            "not_before",
            "run_at",
            "predecessor",
            "names",
            "statuses",
            "limit",
            "previous_name",
            "weight",
            "nice",
            "interval",
            "max_running",
            "max_getwork",
            "max_retries",
            "min_gb",
            "min_quorum",
            "target_nresults",
            "max_error_results",
            "max_total_results",
            "max_success_results",
            "delay_bound",
            "validator",
            "retention",
            "then",
            "runtime",
            "continuous",
            "disabled",
            "paused",
            "max_attempts_returned",
            "output",
            "result");

    private final SplittableRandom random;
    private final Map<CommandType, List<String>> templates = templates();

    public CommandFuzzer(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** The commands that build the state the fuzzed ones act on: specs, units, attempts, workers, a job tree. */
    public static List<String> seedCommands() {
        return List.of(
                cmd("set_work_spec", "\"work_spec\":{\"name\":\"s1\",\"then\":\"s2\",\"max_retries\":5}"),
                cmd("set_work_spec", "\"work_spec\":{\"name\":\"s2\",\"priority\":1}"),
                cmd(
                        "set_work_spec",
                        "\"work_spec\":{\"name\":\"rep\",\"min_quorum\":2,\"target_nresults\":3,"
                                + "\"delay_bound\":60,\"retention\":600}"),
                cmd("set_work_spec", "\"work_spec\":{\"name\":\"cont\",\"continuous\":true,\"interval\":5}"),
                cmd(
                        "add_work_units",
                        "\"work_spec_name\":\"s1\",\"work_units\":[{\"name\":\"u1\"},{\"name\":\"u2\","
                                + "\"priority\":3},{\"name\":\"u3\",\"delay\":60},{\"name\":\"c1\",\"parent\":{\"work_unit_name\":\"u1\"}},"
                                + "{\"name\":\"h1\",\"predecessor\":{\"work_unit_name\":\"u2\"}}]"),
                cmd("add_work_units", "\"work_spec_name\":\"s2\",\"work_units\":[{\"name\":\"v1\"},{\"name\":\"v2\"}]"),
                cmd("add_work_units", "\"work_spec_name\":\"rep\",\"work_units\":[{\"name\":\"r1\"}]"),
                cmd("worker_heartbeat", "\"worker\":\"w1\",\"mode\":\"run\""),
                cmd("worker_heartbeat", "\"worker\":\"w2\",\"parent\":\"w1\""),
                cmd("request_attempts", "\"worker\":\"w1\",\"count\":2,\"work_specs\":[\"s1\"]"),
                cmd("request_attempts", "\"worker\":\"w2\",\"work_specs\":[\"rep\"]"),
                cmd("request_attempts", "\"worker\":\"w1\",\"work_specs\":[\"s2\"]"));
    }

    private static String cmd(String command, String fields) {
        return "{\"command\":\"" + command + "\",\"namespace\":\"" + NAMESPACE + "\"" + (fields.isEmpty() ? "" : ",")
                + fields + "}";
    }

    /** One valid template or more per command type, naming what {@link #seedCommands} made. */
    private static Map<CommandType, List<String>> templates() {
        Map<CommandType, List<String>> t = new EnumMap<>(CommandType.class);
        t.put(
                CommandType.SET_WORK_SPEC,
                List.of(
                        cmd(
                                "set_work_spec",
                                "\"work_spec\":{\"name\":\"s3\",\"priority\":2,\"weight\":3,\"nice\":1,"
                                        + "\"max_running\":4,\"max_getwork\":2,\"interval\":10,\"min_gb\":1,\"runtime\":\"py\"}"),
                        cmd(
                                "set_work_spec",
                                "\"work_spec_name\":\"s1\",\"work_spec\":{\"name\":\"s1\",\"then\":\"s2\"}"),
                        cmd(
                                "set_work_spec",
                                "\"work_spec\":{\"name\":\"rep2\",\"min_quorum\":2,\"target_nresults\":2,"
                                        + "\"max_error_results\":3,\"max_total_results\":10,\"max_success_results\":6,\"delay_bound\":30,"
                                        + "\"validator\":\"exact\",\"retention\":5}")));
        t.put(
                CommandType.SET_WORK_SPEC_META,
                List.of(cmd(
                        "set_work_spec_meta",
                        "\"work_spec_name\":\"s1\",\"meta\":"
                                + "{\"priority\":1,\"weight\":2,\"paused\":false,\"continuous\":true,\"interval\":3,\"max_running\":2,"
                                + "\"max_attempts_returned\":3,\"max_retries\":4}")));
        t.put(CommandType.DELETE_WORK_SPEC, List.of(cmd("delete_work_spec", "\"work_spec_name\":\"s2\"")));
        t.put(
                CommandType.ADD_WORK_UNITS,
                List.of(
                        cmd(
                                "add_work_units",
                                "\"work_spec_name\":\"s1\",\"work_units\":[{\"name\":\"n1\",\"data\":{\"k\":1},"
                                        + "\"priority\":2,\"delay\":30},{\"name\":\"n2\",\"not_before\":\"2026-11-23T00:00:00Z\"},{}]"),
                        cmd(
                                "add_work_units",
                                "\"work_spec_name\":\"s1\",\"work_units\":[{\"name\":\"n3\",\"parent\":"
                                        + "{\"work_spec_name\":\"s1\",\"work_unit_name\":\"u2\"},\"run_at\":\"2026-11-22T10:00:05Z\"},"
                                        + "{\"name\":\"n4\",\"predecessor\":{\"work_unit_name\":\"n3\"}}]")));
        t.put(
                CommandType.PRIORITIZE_WORK_UNITS,
                List.of(
                        cmd(
                                "prioritize_work_units",
                                "\"work_spec_name\":\"s1\",\"query\":{\"names\":[\"u1\"]},\"priority\":5"),
                        cmd(
                                "prioritize_work_units",
                                "\"work_spec_name\":\"s1\",\"query\":{\"statuses\":[\"available\"],"
                                        + "\"previous_name\":\"a\",\"limit\":2},\"adjustment\":-1")));
        t.put(
                CommandType.DELETE_WORK_UNITS,
                List.of(cmd("delete_work_units", "\"work_spec_name\":\"s1\",\"query\":{\"names\":[\"u3\"]}")));
        t.put(
                CommandType.RESET_WORK_UNITS,
                List.of(cmd("reset_work_units", "\"work_spec_name\":\"s1\",\"query\":{\"statuses\":[\"pending\"]}")));
        t.put(
                CommandType.CANCEL_WORK_UNITS,
                List.of(
                        cmd("cancel_work_units", "\"work_spec_name\":\"rep\",\"query\":{\"names\":[\"r1\"]}"),
                        cmd(
                                "cancel_work_units",
                                "\"work_spec_name\":\"s1\",\"query\":{\"statuses\":[\"pending\",\"blocked\"]}")));
        t.put(
                CommandType.REQUEST_ATTEMPTS,
                List.of(
                        cmd(
                                "request_attempts",
                                "\"worker\":\"w3\",\"count\":3,\"lifetime\":60,\"work_specs\":[\"s1\",\"rep\"],"
                                        + "\"runtimes\":[\"\"],\"available_gb\":4"),
                        cmd("request_attempts", "\"worker\":\"w1\"")));
        t.put(
                CommandType.RENEW_ATTEMPT,
                List.of(
                        cmd("renew_attempt", "\"attempt_id\":\"1\",\"extend\":120," + "\"data\":{\"progress\":1}"),
                        cmd(
                                "renew_attempt",
                                "\"attempt_id\":\"2\",\"progress\":{\"fraction\":0.5,\"message\":\"half\"}")));
        t.put(
                CommandType.FINISH_ATTEMPT,
                List.of(
                        cmd(
                                "finish_attempt",
                                "\"attempt_id\":\"1\",\"data\":{\"output\":[\"o1\",[\"o2\",{\"k\":2},{\"delay\":5},"
                                        + "3]]}"),
                        cmd("finish_attempt", "\"attempt_id\":\"3\",\"data\":{\"result\":{\"r\":1}}")));
        t.put(
                CommandType.FINISH_ATTEMPTS,
                List.of(cmd(
                        "finish_attempts",
                        "\"attempts\":[{\"attempt_id\":\"1\"},"
                                + "{\"attempt_id\":\"2\",\"data\":{\"d\":1}},{\"attempt_id\":\"99\"}]")));
        t.put(
                CommandType.FAIL_ATTEMPT,
                List.of(cmd("fail_attempt", "\"attempt_id\":\"2\",\"data\":{\"traceback\":\"t\"}")));
        t.put(CommandType.RETRY_ATTEMPT, List.of(cmd("retry_attempt", "\"attempt_id\":\"1\",\"delay\":10")));
        t.put(CommandType.EXPIRE_ATTEMPT, List.of(cmd("expire_attempt", "\"attempt_id\":\"4\"")));
        t.put(
                CommandType.WORKER_HEARTBEAT,
                List.of(cmd(
                        "worker_heartbeat",
                        "\"worker\":\"w3\",\"parent\":\"w1\","
                                + "\"mode\":\"idle\",\"data\":{\"host\":\"h\"},\"expire\":60")));
        t.put(CommandType.DEACTIVATE_WORKER, List.of(cmd("deactivate_worker", "\"worker\":\"w2\"")));
        t.put(CommandType.DESTROY_NAMESPACE, List.of(cmd("destroy_namespace", "")));
        for (CommandType type : CommandType.values()) {
            if (!t.containsKey(type)) {
                throw new IllegalStateException("no template for " + type);
            }
        }
        return t;
    }

    /** The next record. */
    public Input next() {
        int kind = random.nextInt(100);
        if (kind < 3) {
            return randomBytes();
        }
        CommandType type = CommandType.values()[random.nextInt(CommandType.values().length)];
        if (type == CommandType.DESTROY_NAMESPACE && random.nextInt(10) != 0) {
            type = CommandType.REQUEST_ATTEMPTS; // destroying the seed state often leaves little to reach
        }
        List<String> choices = templates.get(type);
        ObjectNode body = (ObjectNode) Json.parse(choices.get(random.nextInt(choices.size())));
        StringBuilder how = new StringBuilder(type.wireName());
        if (random.nextInt(10) < 7) {
            body.put("reply_to", "fuzz");
            body.put("request_id", "f" + random.nextInt(1000));
        }
        int mutations = random.nextInt(100) < 15 ? 0 : 1 + random.nextInt(3);
        for (int i = 0; i < mutations; i++) {
            mutate(body, how);
        }
        byte[] key = NAMESPACE.getBytes(StandardCharsets.UTF_8);
        if (random.nextInt(100) < 8) {
            key = key(body, how);
        }
        String text = text(body);
        if (random.nextInt(100) < 12) {
            text = mutateText(text, how);
        }
        return new Input(key, text.getBytes(StandardCharsets.UTF_8), how.toString());
    }

    /** The JSON of the body; half the time with every non-ASCII character escaped, so lone surrogates stay in. */
    private String text(ObjectNode body) {
        try {
            return random.nextBoolean() ? Json.MAPPER.writeValueAsString(body) : ESCAPING.writeValueAsString(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectWriter ESCAPING =
            Json.MAPPER.writer().with(com.fasterxml.jackson.core.json.JsonWriteFeature.ESCAPE_NON_ASCII);

    private Input randomBytes() {
        byte[] value = new byte[random.nextInt(64)];
        for (int i = 0; i < value.length; i++) {
            value[i] = (byte) random.nextInt(256);
        }
        return new Input(
                random.nextBoolean() ? null : NAMESPACE.getBytes(StandardCharsets.UTF_8),
                random.nextInt(20) == 0 ? null : value,
                "random bytes");
    }

    private byte[] key(ObjectNode body, StringBuilder how) {
        switch (random.nextInt(6)) {
            case 0 -> {
                how.append(" key=null");
                return null;
            }
            case 1 -> {
                how.append(" key=empty");
                return new byte[0];
            }
            case 2 -> {
                how.append(" key=0xff");
                return new byte[] {(byte) 0xff};
            }
            case 3 -> {
                how.append(" key=ns+0xfe");
                return new byte[] {'n', 's', (byte) 0xfe};
            }
            case 4 -> {
                how.append(" key=other");
                return "other".getBytes(StandardCharsets.UTF_8);
            }
            default -> {
                how.append(" key=namespace field");
                JsonNode ns = body.get("namespace");
                return ns != null && ns.isTextual() ? ns.textValue().getBytes(StandardCharsets.UTF_8) : null;
            }
        }
    }

    private void mutate(ObjectNode body, StringBuilder how) {
        int kind = random.nextInt(100);
        if (kind < 8) {
            String command = random.nextInt(5) == 0
                    ? "launch"
                    : CommandType.values()[random.nextInt(CommandType.values().length)].wireName();
            how.append(" command=").append(command);
            body.put("command", command);
            return;
        }
        if (kind < 12) {
            String namespace =
                    List.of("", "other", "\ud800", "\ufffd", "ns\u0000", HUGE).get(random.nextInt(6));
            how.append(" namespace=").append(namespace.length() > 20 ? "huge" : namespace);
            body.put("namespace", namespace);
            return;
        }
        List<ContainerNode<?>> containers = new ArrayList<>();
        collect(body, containers);
        ContainerNode<?> target = containers.get(random.nextInt(containers.size()));
        if (kind < 22) {
            // drop a field or an item
            if (target.size() > 0) {
                if (target instanceof ObjectNode object) {
                    List<String> names = new ArrayList<>();
                    object.fieldNames().forEachRemaining(names::add);
                    String name = names.get(random.nextInt(names.size()));
                    how.append(" drop ").append(name);
                    object.remove(name);
                } else {
                    ArrayNode array = (ArrayNode) target;
                    how.append(" drop item");
                    array.remove(random.nextInt(array.size()));
                }
            }
            return;
        }
        JsonNode value = evilValue();
        if (target instanceof ObjectNode object) {
            String name;
            if (kind < 40 || object.isEmpty()) {
                name = FIELDS.get(random.nextInt(FIELDS.size())); // added, or one already there
            } else {
                List<String> names = new ArrayList<>();
                object.fieldNames().forEachRemaining(names::add);
                name = names.get(random.nextInt(names.size()));
            }
            how.append(' ').append(name).append('=').append(abbreviate(value));
            object.set(name, value);
        } else {
            ArrayNode array = (ArrayNode) target;
            how.append(" item=").append(abbreviate(value));
            if (array.isEmpty() || random.nextBoolean()) {
                array.add(value);
            } else {
                array.set(random.nextInt(array.size()), value);
            }
        }
    }

    private JsonNode evilValue() {
        int kind = random.nextInt(100);
        if (kind < 2) {
            return Json.MAPPER.getNodeFactory().textNode(HUGE.substring(0, 1 + random.nextInt(HUGE.length())));
        }
        if (kind < 4) {
            // a number of any magnitude, finite or not
            return Json.parse((random.nextBoolean() ? "-" : "") + random.nextInt(10) + "." + random.nextInt(1000) + "e"
                    + (random.nextInt(700) - 350));
        }
        if (kind < 5) {
            // a data object over the limit
            ObjectNode big = Json.object();
            big.put("blob", "y".repeat(300 * 1024));
            return big;
        }
        return Json.parse(EVIL.get(random.nextInt(EVIL.size())));
    }

    private static String abbreviate(JsonNode value) {
        String text = value.toString();
        return text.length() <= 40 ? text : text.substring(0, 40) + "...(" + text.length() + ")";
    }

    private static void collect(JsonNode node, List<ContainerNode<?>> out) {
        if (node instanceof ContainerNode<?> container) {
            out.add(container);
            node.elements().forEachRemaining(child -> collect(child, out));
        }
    }

    private String mutateText(String text, StringBuilder how) {
        switch (random.nextInt(7)) {
            case 0 -> {
                int at = random.nextInt(text.length() + 1);
                how.append(" truncated at ").append(at);
                return text.substring(0, at);
            }
            case 1 -> {
                int at = random.nextInt(text.length());
                char c = (char) (32 + random.nextInt(95));
                how.append(" char ").append(at).append('=').append(c);
                return text.substring(0, at) + c + text.substring(at + 1);
            }
            case 2 -> {
                // a duplicate key: the namespace (or the command) given twice
                String field = random.nextBoolean() ? "\"namespace\":\"other\"," : "\"command\":\"destroy_namespace\",";
                how.append(" duplicate ").append(field);
                return random.nextBoolean()
                        ? "{" + field + text.substring(1)
                        : text.substring(0, text.length() - 1) + "," + field.substring(0, field.length() - 1) + "}";
            }
            case 3 -> {
                how.append(" deep nesting");
                String deep = random.nextBoolean() ? DEEP_ARRAY : DEEP_OBJECT;
                return text.substring(0, text.length() - 1) + ",\"data\":" + deep + "}";
            }
            case 4 -> {
                String literal = List.of(
                                "NaN", "Infinity", "-Infinity", "01", "1.", ".5", "+1", "0x10", "'x'", "undefined")
                        .get(random.nextInt(10));
                how.append(" literal ").append(literal);
                return text.substring(0, text.length() - 1) + ",\"priority\":" + literal + "}";
            }
            case 5 -> {
                how.append(" trailing garbage");
                return text + (random.nextBoolean() ? " {}" : "\u0000");
            }
            default -> {
                how.append(" not an object");
                return List.of("[" + text + "]", "\"" + text.length() + "\"", "null", "42", "")
                        .get(random.nextInt(5));
            }
        }
    }
}
