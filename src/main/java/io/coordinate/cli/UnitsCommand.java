package io.coordinate.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.client.AddedUnits;
import io.coordinate.client.CoordinateClient;
import io.coordinate.client.UnitQuery;
import io.coordinate.client.WorkUnit;
import io.coordinate.protocol.IfExists;
import io.coordinate.protocol.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code coordinate units add|list|status|reset|cancel|delete --spec NAME}: the work units of one spec. */
@Command(
        name = "units",
        description = "Add, list, show, reset, cancel and delete the work units of a spec.",
        subcommands = {
            UnitsCommand.Add.class,
            UnitsCommand.ListUnits.class,
            UnitsCommand.Status.class,
            UnitsCommand.Reset.class,
            UnitsCommand.Cancel.class,
            UnitsCommand.Delete.class
        })
final class UnitsCommand {

    /** A command on the units of one spec. */
    abstract static class OfSpec extends OperatorCommand {
        @Option(names = "--spec", required = true, paramLabel = "NAME", description = "The work spec.")
        String workSpec;
    }

    @Command(
            name = "add",
            description =
                    "Add units (or replace units of the same names) from JSON lines, one unit "
                            + "object per line: {\"name\": ..., \"data\": {...}, \"priority\": ..., \"delay\": ..., \"not_before\": ...}.")
    static final class Add extends OfSpec {

        /** Below this many units no progress bar is drawn. */
        static final int PROGRESS_THRESHOLD = 10_000;

        @Parameters(paramLabel = "FILE|-", description = "JSON lines; - reads stdin.")
        String file;

        @Option(
                names = "--batch-size",
                defaultValue = "500",
                description = "Units per add_work_units command (default: ${DEFAULT-VALUE}).")
        int batchSize;

        @Option(
                names = "--in-flight",
                defaultValue = "4",
                description = "Commands sent before waiting for a reply (default: ${DEFAULT-VALUE}).")
        int inFlight;

        @Option(
                names = "--if-exists",
                paramLabel = "keep|keep_unless_finished|replace",
                converter = IfExistsValue.class,
                description = "What to do with a unit whose name exists: keep it as it is, keep it unless it is "
                        + "finished, or replace it (the default); then the units added, replaced and kept are named.")
        IfExists ifExists;

        @Override
        void run() throws Exception {
            if (batchSize < 1 || batchSize > 100_000 || inFlight < 1) {
                throw new CommandLine.ParameterException(
                        command.commandLine(), "--batch-size must be in 1..100000 and --in-flight at least 1");
            }
            List<WorkUnit> units;
            try (BufferedReader in = open(file)) {
                units = UnitLines.parse(in, workSpec);
            } catch (IOException e) {
                throw new CliFailure(ExitCodes.USAGE, "error: cannot read " + file + ": " + e.getMessage());
            }
            List<AddedUnits> replies = addInBatches(units);
            if (ifExists != null) {
                printOutcomes(replies.stream().reduce(new AddedUnits(0, List.of()), AddedUnits::plus));
                return;
            }
            long added = replies.stream().mapToLong(AddedUnits::added).sum();
            if (json) {
                ObjectNode result = Json.object().put("added", added);
                ArrayNode names = result.putArray("work_unit_names");
                replies.forEach(reply -> reply.workUnitNames().forEach(names::add));
                printJson(result);
            } else {
                printLine("added " + added + " units to spec \"" + workSpec + "\"");
            }
        }

        /** The option's values as the wire spells them. */
        static final class IfExistsValue implements CommandLine.ITypeConverter<IfExists> {
            @Override
            public IfExists convert(String value) {
                IfExists mode = IfExists.fromWire(value);
                if (mode == null) {
                    throw new CommandLine.TypeConversionException(
                            "not keep, keep_unless_finished or replace: " + value);
                }
                return mode;
            }
        }

        /** The reply's lists as {@code add_work_units} gives them, or their counts as one line. */
        private void printOutcomes(AddedUnits all) {
            if (json) {
                ObjectNode result = Json.object();
                all.addedNames().forEach(result.putArray("added")::add);
                all.replaced().forEach(result.putArray("replaced")::add);
                all.kept().forEach(result.putArray("kept")::add);
                all.workUnitNames().forEach(result.putArray("work_unit_names")::add);
                printJson(result);
            } else {
                printLine("added " + all.addedNames().size() + ", replaced "
                        + all.replaced().size() + ", kept " + all.kept().size() + " units of spec \"" + workSpec
                        + "\"");
            }
        }

        /** Sends the batches in order, at most {@link #inFlight} unanswered; stops sending at the first failure. */
        private List<AddedUnits> addInBatches(List<WorkUnit> units) throws InterruptedException {
            Progress progress = new Progress(units.size());
            List<CompletableFuture<AddedUnits>> replies = new ArrayList<>();
            try (CoordinateClient client = options.client()) {
                Semaphore slots = new Semaphore(inFlight);
                for (int from = 0; from < units.size(); from += batchSize) {
                    slots.acquire();
                    if (replies.stream().anyMatch(CompletableFuture::isCompletedExceptionally)) {
                        slots.release();
                        break;
                    }
                    List<WorkUnit> batch = units.subList(from, Math.min(units.size(), from + batchSize));
                    replies.add(client.addWorkUnits(workSpec, batch, ifExists).whenComplete((reply, error) -> {
                        slots.release();
                        progress.done(batch.size());
                    }));
                }
                List<AddedUnits> answers = new ArrayList<>();
                for (CompletableFuture<AddedUnits> reply : replies) {
                    answers.add(await(reply));
                }
                return answers;
            } finally {
                progress.end();
            }
        }

        /** A bar on stderr, only for a person at a terminal and a large input. */
        private final class Progress {
            private final long total;
            private final boolean shown;
            private final AtomicLong done = new AtomicLong();

            Progress(long total) {
                this.total = total;
                this.shown = System.console() != null && total >= PROGRESS_THRESHOLD;
            }

            void done(int units) {
                long now = done.addAndGet(units);
                if (shown) {
                    int filled = (int) (30 * now / total);
                    synchronized (this) {
                        err().print("\r[" + "#".repeat(filled) + " ".repeat(30 - filled) + "] " + now + "/" + total
                                + " units");
                        err().flush();
                    }
                }
            }

            void end() {
                if (shown) {
                    err().println();
                    err().flush();
                }
            }
        }
    }

    @Command(name = "list", description = "List units in name order, a page at a time.")
    static final class ListUnits extends OfSpec {

        @Option(
                names = "--status",
                split = ",",
                paramLabel = "STATUS",
                description = "Only units with this status (repeatable, or comma-separated).")
        List<String> statuses = new ArrayList<>();

        @Option(
                names = "--name",
                split = ",",
                paramLabel = "NAME",
                description = "Only the units of these names (repeatable, or comma-separated).")
        List<String> names = new ArrayList<>();

        @Option(names = "--group", paramLabel = "GROUP", description = "Only the units of this concurrency group.")
        String group;

        @Option(
                names = "--after",
                paramLabel = "NAME",
                description = "Start after this name (the previous page's last; the list says what to pass).")
        String after;

        @Option(
                names = "--limit",
                paramLabel = "N",
                description = "At most N units (the API's default 100, at most 1000).")
        Integer limit;

        @Override
        void run() {
            JsonNode page = read(
                    parameters("status", statuses, "name", names, "group", group, "previous", after, "limit", limit),
                    "work-specs",
                    workSpec,
                    "work-units");
            if (json) {
                printJson(page);
                return;
            }
            Table table = new Table("NAME", "STATUS", "PRIORITY", "ATTEMPT", "DATA");
            for (JsonNode unit : page.path("work_units")) {
                table.row(
                        unit.path("name").asText(),
                        unit.path("status").asText(),
                        cell(unit.get("priority")),
                        cell(unit.get("active_attempt")),
                        shorten(cell(unit.get("data")), 60));
            }
            table.print(out());
            printNextPageHint(page);
        }
    }

    @Command(
            name = "status",
            description = "Show one unit: status, data, links, retries, the last error, progress and attempts.")
    static final class Status extends OfSpec {

        @Parameters(paramLabel = "NAME", description = "The unit's name.")
        String name;

        @Override
        void run() {
            JsonNode unit = read("work-specs", workSpec, "work-units", name);
            if (json) {
                printJson(unit);
                return;
            }
            UnitStatusText.print(unit, out());
        }
    }

    /** A reset, cancel or delete: the units a query selects, which must say which ones, or {@code --all}. */
    abstract static class ByQuery extends OfSpec {

        @Option(names = "--status", paramLabel = "STATUS", description = "Units with this status now (repeatable).")
        List<String> statuses = new ArrayList<>();

        @Option(names = "--name", paramLabel = "NAME", description = "The unit of this name (repeatable).")
        List<String> names = new ArrayList<>();

        @Option(names = "--all", description = "Every unit of the spec.")
        boolean all;

        /** The query of the options; no filter and no {@code --all} is a usage error, as is a filter with it. */
        UnitQuery query() {
            boolean filtered = !statuses.isEmpty() || !names.isEmpty();
            if (filtered == all) {
                String verb = command.name();
                throw new CommandLine.ParameterException(
                        command.commandLine(),
                        all
                                ? "--all selects every unit: give it without --status or --name"
                                : "units " + verb
                                        + " needs a filter: pass --status S or --name N (both repeatable), or --all to "
                                        + verb + " every unit of the spec");
            }
            UnitQuery query = UnitQuery.all();
            if (!statuses.isEmpty()) {
                query = query.andStatuses(statuses);
            }
            return names.isEmpty() ? query : query.andNames(names);
        }

        void printCount(String verb, long count) {
            if (json) {
                printJson(Json.object().put(verb, count));
            } else {
                printLine(verb + " " + count + " units");
            }
        }
    }

    @Command(name = "reset", description = "Drop the active attempt of the selected units so they run again.")
    static final class Reset extends ByQuery {
        @Override
        void run() {
            UnitQuery query = query();
            printCount("reset", send(client -> client.resetWorkUnits(workSpec, query)));
        }
    }

    @Command(
            name = "cancel",
            description = "Cancel the selected units: they never run again, and the commands still running on them"
                    + " are stopped.")
    static final class Cancel extends ByQuery {
        @Override
        void run() {
            UnitQuery query = query();
            printCount("cancelled", send(client -> client.cancelWorkUnits(workSpec, query)));
        }
    }

    @Command(name = "delete", description = "Delete the selected units.")
    static final class Delete extends ByQuery {
        @Override
        void run() {
            UnitQuery query = query();
            printCount("deleted", send(client -> client.deleteWorkUnits(workSpec, query)));
        }
    }
}
