package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.protocol.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The notices of a cancel to the workers of the attempts it cancelled (docs/reference.md#cancel_work_units): one
 * record per worker on {@code coordinate.assignments}, keyed by the worker as its assignments are,
 * {@code {"namespace", "worker", "cancelled": [attempt ids]}}, written with the cancel itself. It has no
 * {@code attempts}, so a reader of assignments that does not know it hands out nothing for it.
 */
final class CancelNotices {

    /** A notice names at most this many attempts, so that a record stays far below Kafka's limit; more take more. */
    static final int MAX_IDS_PER_NOTICE = 10_000;

    private final String ns;
    private final Map<String, List<String>> idsByWorker = new LinkedHashMap<>();

    CancelNotices(String ns) {
        this.ns = ns;
    }

    /** A cancelled attempt (null: the unit had none running, no one to tell). */
    void add(AttemptRecord cancelled) {
        if (cancelled != null) {
            idsByWorker
                    .computeIfAbsent(cancelled.worker(), worker -> new ArrayList<>())
                    .add(cancelled.id());
        }
    }

    /** Writes the notices, the workers in the order of their first cancelled attempt. */
    void writeTo(CommandContext ctx) {
        idsByWorker.forEach((worker, ids) -> {
            for (int from = 0; from < ids.size(); from += MAX_IDS_PER_NOTICE) {
                ObjectNode notice = Json.object();
                notice.put("namespace", ns);
                notice.put("worker", worker);
                ArrayNode cancelled = notice.putArray("cancelled");
                ids.subList(from, Math.min(ids.size(), from + MAX_IDS_PER_NOTICE))
                        .forEach(cancelled::add);
                ctx.assignment(worker, Json.bytes(notice));
            }
        });
    }
}
