package io.coordinate.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code coordinate workers list}: the namespace's workers. */
@Command(
        name = "workers",
        description = "Show the workers of a namespace.",
        subcommands = WorkersCommand.ListWorkers.class)
final class WorkersCommand {

    @Command(name = "list", description = "List workers in name order, a page at a time.")
    static final class ListWorkers extends OperatorCommand {

        @Option(
                names = "--after",
                paramLabel = "NAME",
                description = "Start after this name (the previous page's last).")
        String after;

        @Option(
                names = "--limit",
                paramLabel = "N",
                description = "At most N workers (the API's default 100, at most 1000).")
        Integer limit;

        @Override
        void run() {
            JsonNode page = read(parameters("previous", after, "limit", limit), "workers");
            if (json) {
                printJson(page);
                return;
            }
            Table table = new Table("NAME", "ACTIVE", "EXPIRED", "MODE", "PARENT", "ATTEMPTS", "LAST_UPDATE");
            for (JsonNode worker : page.path("workers")) {
                table.row(
                        worker.path("name").asText(),
                        worker.path("active").asText(),
                        worker.path("expired").asText(),
                        cell(worker.get("mode")),
                        cell(worker.get("parent")),
                        worker.path("active_attempts").size(),
                        cell(worker.get("last_update")));
            }
            table.print(out());
            printNextPageHint(page);
        }
    }
}
