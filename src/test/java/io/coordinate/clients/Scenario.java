package io.coordinate.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** One scenario of clients/conformance/scenarios, in the format of clients/conformance/README.md. */
record Scenario(String name, JsonNode json) {

    static final Path DIRECTORY = Path.of("clients", "conformance", "scenarios");

    static List<Scenario> all() throws IOException {
        List<Scenario> scenarios = new ArrayList<>();
        try (Stream<Path> files = Files.list(DIRECTORY)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                String name = file.getFileName().toString().replaceFirst("\\.json$", "");
                scenarios.add(new Scenario(name, Json.parse(Files.readString(file))));
            }
        }
        return scenarios;
    }

    String specName() {
        return json.get("spec").get("name").asText();
    }

    JsonNode spec() {
        return json.get("spec");
    }

    /** The units to add: each entry of {@code units}, one per name, {@code count} of them named name0, name1, .... */
    ArrayNode units() {
        ArrayNode units = Json.MAPPER.createArrayNode();
        for (JsonNode entry : json.get("units")) {
            int count = entry.path("count").asInt(0);
            for (int i = 0; i < Math.max(count, 1); i++) {
                ObjectNode unit = units.addObject();
                unit.put("name", entry.get("name").asText() + (count > 0 ? String.valueOf(i) : ""));
                unit.set("data", entry.path("data").isObject() ? entry.get("data") : Json.object());
                unit.put("priority", entry.path("priority").asDouble(0));
            }
        }
        return units;
    }

    List<String> unitNames() {
        List<String> names = new ArrayList<>();
        units().forEach(unit -> names.add(unit.get("name").asText()));
        return names;
    }

    int concurrency() {
        return json.path("worker").path("concurrency").asInt(1);
    }

    double leaseSeconds() {
        return json.path("worker").path("lease_seconds").asDouble(30);
    }

    double maxBackoffSeconds() {
        return json.path("worker").path("max_backoff_seconds").asDouble(0.5);
    }

    /** Finished units after which the worker is stopped and started again; 0: never. */
    int stopAfter() {
        return json.path("stop_after").asInt(0);
    }

    List<String> cancel() {
        List<String> names = new ArrayList<>();
        json.path("cancel").forEach(name -> names.add(name.asText()));
        return names;
    }

    /** Why this scenario does not apply to a worker kind, or null. */
    String skipReason(WorkerKind kind) {
        JsonNode reason = json.path("skip").get(kind.key());
        return reason == null ? null : reason.asText();
    }

    /** What is expected of unit {@code name}: its own entry, else the {@code "*"} entry (empty: nothing). */
    JsonNode expectedUnit(String name) {
        JsonNode units = json.path("expect").path("units");
        return units.has(name) ? units.get(name) : units.path("*");
    }

    JsonNode expectedEvents() {
        return json.path("expect").path("events");
    }

    JsonNode expectedWorker() {
        return json.path("expect").path("worker");
    }
}
