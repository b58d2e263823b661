package io.coordinate.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;

/** {@code coordinate summary}: units by spec and status. */
@Command(name = "summary", description = "Count the namespace's units by spec and status.")
final class SummaryCommand extends OperatorCommand {

    @Override
    void run() {
        JsonNode summary = read("summary");
        if (json) {
            printJson(summary);
            return;
        }
        Table table = new Table(concat(headers("SPEC"), new Object[] {"TOTAL"}));
        for (JsonNode spec : summary.path("work_specs")) {
            table.row(row(spec.path("name").asText(), spec.path("counts")));
        }
        table.row(row("(all)", summary.path("counts"))).print(out());
    }

    private static Object[] row(String name, JsonNode counts) {
        long total = 0;
        for (JsonNode count : counts) {
            total += count.asLong();
        }
        return concat(concat(new Object[] {name}, countCells(counts)), new Object[] {total});
    }
}
