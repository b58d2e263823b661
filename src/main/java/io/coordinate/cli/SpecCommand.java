package io.coordinate.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.client.WorkSpec;
import io.coordinate.client.WorkSpecChange;
import io.coordinate.client.WorkSpecInfo;
import io.coordinate.protocol.Json;
import java.io.IOException;
import java.io.Reader;
import java.util.Iterator;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code coordinate spec set|get|list|pause|resume}: work specs. */
@Command(
        name = "spec",
        description = "Define, show, pause and resume work specs.",
        subcommands = {
            SpecCommand.Set.class,
            SpecCommand.Get.class,
            SpecCommand.ListSpecs.class,
            SpecCommand.Pause.class,
            SpecCommand.Resume.class
        })
final class SpecCommand {

    @Command(
            name = "set",
            description = "Create a spec, or reload an existing one, from a JSON object with its data "
                    + "(\"name\" and the keys of set_work_spec: priority, weight, max_running, ...).")
    static final class Set extends OperatorCommand {

        @Parameters(paramLabel = "FILE|-", description = "The spec's JSON object; - reads stdin.")
        String file;

        @Override
        void run() {
            WorkSpec spec = parse(file);
            WorkSpecInfo info = send(client -> client.setWorkSpec(spec));
            if (json) {
                printJson(Json.MAPPER.valueToTree(info));
            } else {
                printLine("set spec \"" + info.name() + "\"");
            }
        }

        /** The spec in the file; anything but an object with a string {@code name} is a usage error. */
        static WorkSpec parse(String file) {
            JsonNode data;
            try (Reader in = open(file)) {
                data = Json.MAPPER.readTree(in);
            } catch (IOException e) {
                throw new CliFailure(ExitCodes.USAGE, "error: " + file + " is not JSON: " + firstLine(e.getMessage()));
            }
            if (data == null || !data.isObject()) {
                throw new CliFailure(ExitCodes.USAGE, "error: " + file + " must hold one JSON object, the spec's data");
            }
            if (!data.path("name").isTextual() || data.path("name").asText().isEmpty()) {
                throw new CliFailure(ExitCodes.USAGE, "error: " + file + ": the spec needs a \"name\" string");
            }
            WorkSpec.Builder spec = WorkSpec.named(data.get("name").asText());
            Iterator<Map.Entry<String, JsonNode>> fields = ((ObjectNode) data).fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (!field.getKey().equals("name")) {
                    spec.set(field.getKey(), Json.MAPPER.convertValue(field.getValue(), Object.class));
                }
            }
            return spec.build();
        }

        private static String firstLine(String message) {
            return message == null ? "" : message.lines().findFirst().orElse("");
        }
    }

    @Command(name = "get", description = "Show one spec: its settings, data and units by status.")
    static final class Get extends OperatorCommand {

        @Parameters(paramLabel = "NAME", description = "The spec's name.")
        String name;

        @Override
        void run() {
            JsonNode spec = read("work-specs", name);
            if (json) {
                printJson(spec);
                return;
            }
            Table table = new Table().row("name", spec.path("name").asText());
            spec.path("meta").fields().forEachRemaining(field -> table.row(field.getKey(), cell(field.getValue())));
            Object[] counts = countCells(spec.path("counts"));
            for (int i = 0; i < STATUSES.size(); i++) {
                table.row("units " + STATUSES.get(i), counts[i]);
            }
            table.row("data", cell(spec.path("data"))).print(out());
        }
    }

    @Command(name = "list", description = "List the namespace's specs with their units by status.")
    static final class ListSpecs extends OperatorCommand {

        @Override
        void run() {
            JsonNode answer = read("work-specs");
            if (json) {
                printJson(answer);
                return;
            }
            Table table = new Table(headers("NAME", "PRIORITY", "WEIGHT", "PAUSED"));
            for (JsonNode spec : answer.path("work_specs")) {
                JsonNode meta = spec.path("meta");
                table.row(concat(
                        new Object[] {
                            spec.path("name").asText(),
                            cell(meta.get("priority")),
                            cell(meta.get("weight")),
                            meta.path("paused").asText()
                        },
                        countCells(spec.path("counts"))));
            }
            table.print(out());
        }
    }

    @Command(name = "pause", description = "Pause a spec: none of its units are handed out until it is resumed.")
    static final class Pause extends SetPaused {
        Pause() {
            super(true);
        }
    }

    @Command(name = "resume", description = "Resume a paused spec.")
    static final class Resume extends SetPaused {
        Resume() {
            super(false);
        }
    }

    /** {@code set_work_spec_meta} with {@code paused}. */
    abstract static class SetPaused extends OperatorCommand {

        private final boolean paused;

        @Parameters(paramLabel = "NAME", description = "The spec's name.")
        String name;

        SetPaused(boolean paused) {
            this.paused = paused;
        }

        @Override
        void run() {
            WorkSpecInfo info = send(client ->
                    client.setWorkSpecMeta(name, WorkSpecChange.change().paused(paused)));
            if (json) {
                printJson(Json.MAPPER.valueToTree(info));
            } else {
                printLine((paused ? "paused" : "resumed") + " spec \"" + info.name() + "\"");
            }
        }
    }
}
