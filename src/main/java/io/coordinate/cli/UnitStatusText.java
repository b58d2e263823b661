package io.coordinate.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * {@code units status} for people: the unit's fields, its latest attempt's progress when it reported one, its last
 * error as it was written (a traceback keeps its lines), then its attempts.
 *
 * <pre>
 * name             b.jpg
 * ...
 * retrying         true
 *
 * last_error:
 *   exit status 1
 *
 * ATTEMPT  WORKER  STATUS     START                     END
 * 7        w1      retryable  2026-11-22T10:00:01.000Z  2026-11-22T10:00:02.000Z
 * </pre>
 */
final class UnitStatusText {

    static final List<String> FIELDS = List.of(
            "name",
            "work_spec_name",
            "status",
            "priority",
            "not_before",
            "active_attempt",
            "attempt_count",
            "next_attempt_at",
            "retrying",
            "data",
            "parent",
            "predecessor");

    private UnitStatusText() {}

    static void print(JsonNode unit, PrintWriter out) {
        Table fields = new Table();
        for (String field : FIELDS) {
            fields.row(field, OperatorCommand.cell(unit.get(field)));
        }
        JsonNode attempts = unit.path("attempts");
        JsonNode progress =
                attempts.isEmpty() ? null : attempts.get(attempts.size() - 1).get("progress");
        if (progress != null && progress.isObject()) {
            fields.row("progress", progress(progress));
        }
        fields.print(out);
        String lastError = unit.path("last_error").textValue();
        if (lastError != null) {
            out.println();
            out.println("last_error:");
            lastError.lines().forEach(line -> out.println("  " + line));
        }
        Table table = new Table("ATTEMPT", "WORKER", "STATUS", "START", "END");
        for (JsonNode attempt : attempts) {
            table.row(
                    attempt.path("attempt_id").asText(),
                    OperatorCommand.cell(attempt.get("worker")),
                    OperatorCommand.cell(attempt.get("status")),
                    OperatorCommand.cell(attempt.get("start_time")),
                    OperatorCommand.cell(attempt.get("end_time")));
        }
        if (!table.isEmpty()) {
            out.println();
            table.print(out);
        }
        out.flush();
    }

    /** The fraction as a percentage, the message, then the time in brackets: each only when the attempt reported it. */
    static String progress(JsonNode progress) {
        StringBuilder text = new StringBuilder();
        JsonNode fraction = progress.get("fraction");
        if (fraction != null && fraction.isNumber()) {
            // rounded down, so that an attempt shows done only once it says it is
            double percent = Math.floor(fraction.doubleValue() * 1000) / 10;
            text.append(
                            percent == Math.rint(percent)
                                    ? String.valueOf((long) percent)
                                    : String.format(Locale.ROOT, "%.1f", percent))
                    .append('%');
        }
        JsonNode message = progress.get("message");
        if (message != null && message.isTextual() && !message.textValue().isEmpty()) {
            text.append(text.isEmpty() ? "" : " ").append(message.textValue());
        }
        JsonNode time = progress.get("time");
        if (time != null && time.isTextual()) {
            text.append(text.isEmpty() ? "" : " ")
                    .append('(')
                    .append(time.textValue())
                    .append(')');
        }
        return text.toString();
    }
}
