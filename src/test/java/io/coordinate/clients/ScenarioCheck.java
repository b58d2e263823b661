package io.coordinate.clients;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a scenario's {@code expect} against what the app shows after the run: each unit's view over HTTP, the
 * namespace's events, the commands the workers sent, and the worker's counters. Collects every mismatch, so that one
 * run says all that is wrong.
 */
final class ScenarioCheck {

    /** The reports a worker must not send for a cancelled attempt. */
    private static final Set<String> REPORTS =
            Set.of("finish_attempt", "finish_attempts", "fail_attempt", "retry_attempt");

    private final Scenario scenario;
    private final WorkerKind kind;
    private final Map<String, JsonNode> units;
    private final List<JsonNode> events;
    private final List<JsonNode> commands;
    private final List<String> mismatches = new ArrayList<>();

    ScenarioCheck(
            Scenario scenario,
            WorkerKind kind,
            Map<String, JsonNode> units,
            List<JsonNode> events,
            List<JsonNode> commands) {
        this.scenario = scenario;
        this.kind = kind;
        this.units = units;
        this.events = events;
        this.commands = commands;
    }

    void verify(RunningWorker.Counters counters) {
        for (String unit : scenario.unitNames()) {
            checkUnit(unit, scenario.expectedUnit(unit), units.get(unit));
        }
        checkEvents("namespace", events, scenario.expectedEvents());
        JsonNode worker = scenario.expectedWorker();
        if (scenario.stopAfter() == 0 && !worker.isMissingNode()) {
            expectEqual("worker finished", worker.get("finished"), counters.finished());
            expectEqual("worker failed", worker.get("failed"), counters.failed());
        }
        if (!mismatches.isEmpty()) {
            throw new AssertionError(String.join("\n  ", mismatches));
        }
    }

    private void checkUnit(String unit, JsonNode expected, JsonNode view) {
        JsonNode attempts = view.path("attempts");
        JsonNode latest = attempts.path(attempts.size() - 1);
        expectEqual(
                unit + " status", expected.get("status"), view.path("status").asText());
        expectEqual(
                unit + " attempt_count",
                expected.get("attempt_count"),
                view.path("attempt_count").asLong());
        expectEqual(unit + " result", expected.get("result"), result(view.path("data")));
        expectEqual(
                unit + " latest attempt's status",
                expected.get("attempt_status"),
                latest.path("status").asText());
        if (expected.has("last_error_contains")
                && !view.path("last_error")
                        .asText()
                        .contains(expected.get("last_error_contains").asText())) {
            mismatches.add(
                    unit + " last_error " + view.path("last_error") + " lacks " + expected.get("last_error_contains"));
        }
        if (expected.has("progress")) {
            expectFields(unit + " latest attempt's progress", expected.get("progress"), latest.path("progress"));
        }
        List<JsonNode> own = events.stream()
                .filter(event -> event.path("work_unit_name").asText().equals(unit))
                .toList();
        checkEvents(unit, own, expected.path("events"));
        if ("cancelled".equals(expected.path("status").asText())) {
            String attemptId = latest.path("attempt_id").asText();
            commands.stream()
                    .filter(command -> REPORTS.contains(command.path("command").asText()))
                    .filter(command -> command.toString().contains("\"attempt_id\":\"" + attemptId + "\""))
                    .forEach(command -> mismatches.add(unit + ": reported after its cancellation: " + command));
        }
    }

    /** What the unit was finished with: the data, or for the shell worker the JSON the command printed. */
    private JsonNode result(JsonNode data) {
        if (kind == WorkerKind.SHELL && data.path("stdout").isTextual()) {
            try {
                return Json.parse(data.get("stdout").asText());
            } catch (RuntimeException e) {
                return data;
            }
        }
        return data;
    }

    /** {@code expected}: per event type, an exact count, or {@code {"count" | "min", "fields"}}. */
    private void checkEvents(String what, List<JsonNode> among, JsonNode expected) {
        for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            String type = entry.getKey();
            JsonNode rule = entry.getValue();
            List<JsonNode> ofType = among.stream()
                    .filter(event -> event.path("type").asText().equals(type))
                    .toList();
            JsonNode count = rule.isNumber() ? rule : rule.get("count");
            if (count != null && ofType.size() != count.asInt()) {
                mismatches.add(what + ": " + ofType.size() + " " + type + " events, expected " + count + ": " + ofType);
            }
            if (rule.has("min") && ofType.size() < rule.get("min").asInt()) {
                mismatches.add(
                        what + ": " + ofType.size() + " " + type + " events, expected at least " + rule.get("min"));
            }
            for (JsonNode event : ofType) {
                expectFields(what + " " + type, rule.path("fields"), event);
            }
        }
    }

    /** Each field of {@code expected} has that value in {@code actual} (numbers compared as numbers). */
    private void expectFields(String what, JsonNode expected, JsonNode actual) {
        for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            JsonNode value = actual.path(field.getKey());
            boolean same = field.getValue().isNumber() && value.isNumber()
                    ? field.getValue().asDouble() == value.asDouble()
                    : field.getValue().equals(value);
            if (!same) {
                mismatches.add(what + ": " + field.getKey() + " is " + value + ", expected " + field.getValue()
                        + " (in " + actual + ")");
            }
        }
    }

    private void expectEqual(String what, JsonNode expected, Object actual) {
        if (expected == null) {
            return;
        }
        boolean same = actual instanceof JsonNode node
                ? expected.equals(node)
                : actual instanceof Long number
                        ? expected.asLong() == number
                        : expected.asText().equals(actual);
        if (!same) {
            mismatches.add(what + " is " + actual + ", expected " + expected);
        }
    }
}
