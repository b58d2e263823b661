package io.coordinate.engine;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.handlers.CommandContext;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.ErrorCode;
import io.coordinate.protocol.RecordLimit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Collects the records of one command; events are batched into one record per namespace, or several when they
 * would not fit in one ({@link #EVENT_RECORD_SPLIT_BYTES}).
 */
final class Output implements CommandContext.Records {

    /**
     * A namespace's batch record of events is closed and a new one begun once it holds this many bytes, so that a
     * command touching many units (a large add, say) never needs a record over {@link RecordLimit}: one event,
     * with its unit's data and its attempt's, stays well below the limit's other three quarters.
     */
    static final int EVENT_RECORD_SPLIT_BYTES = 256 * 1024;

    private final long now;
    private final List<OutRecord> replies = new ArrayList<>();
    private final List<OutRecord> assignments = new ArrayList<>();
    private final List<OutRecord> chained = new ArrayList<>();
    private final List<OutRecord> results = new ArrayList<>();
    private final Map<String, EventBatch> eventsByNamespace = new LinkedHashMap<>();
    /** Batches closed because they were full, in the order they were closed. */
    private final List<OutRecord> fullEventBatches = new ArrayList<>();
    /** The batch of the last event's namespace: a command's events are nearly always all in one. */
    private EventBatch lastBatch;

    private String lastNs;
    /** Created at the first change counted: most commands' results share {@link ChangeCounts#NONE}. */
    private ChangeCounts counts;

    Output(long now) {
        this.now = now;
    }

    void reply(String replyTo, JsonNode value) {
        replies.add(new OutRecord(replyTo, value));
    }

    void reply(OutRecord reply) {
        replies.add(reply);
    }

    @Override
    public Supplier<JsonNode> assignment(String worker, byte[] json) {
        OutRecord record = OutRecord.ofJson(worker, json);
        assignments.add(record);
        return record::value;
    }

    @Override
    public void chained(String ns, JsonNode command) {
        chained.add(new OutRecord(ns, command));
    }

    @Override
    public void result(String ns, JsonNode value) {
        results.add(new OutRecord(ns, value));
    }

    /** Starts an event of this type in the namespace's batch; the caller writes its fields next. */
    EventBatch event(String ns, SerializableString type) {
        if (lastBatch == null || !ns.equals(lastNs)) {
            lastBatch = eventsByNamespace.computeIfAbsent(ns, k -> new EventBatch(k, now));
            lastNs = ns;
        }
        if (lastBatch.size() >= EVENT_RECORD_SPLIT_BYTES) {
            fullEventBatches.add(OutRecord.ofJson(ns, lastBatch.toJson()));
            lastBatch = new EventBatch(ns, now);
            eventsByNamespace.put(ns, lastBatch);
        }
        return lastBatch.event(type);
    }

    /** Counts a change of this kind to a unit or attempt of the spec (see {@link EngineResult#counts()}). */
    void count(String ns, String spec, ChangeCounts.Kind kind) {
        if (counts == null) {
            counts = new ChangeCounts();
        }
        counts.add(ns, spec, kind);
    }

    /**
     * Refuses the command ({@code too_large}) when one of its records so far would not fit in a Kafka record, nor
     * would {@code reply}, its answer (null: none).
     */
    void checkRecordSizes(OutRecord reply) {
        checkFit("reply", reply);
        checkFits("reply", replies);
        checkFits("assignment", assignments);
        checkFits("chained command", chained);
        checkFits("result", results);
        checkFits("event batch", fullEventBatches); // never too large by themselves, but cheap to be sure
        eventsByNamespace.forEach((ns, batch) -> checkSize("event", ns, batch.size()));
    }

    private static void checkFits(String what, List<OutRecord> records) {
        for (OutRecord record : records) {
            checkFit(what, record);
        }
    }

    private static void checkFit(String what, OutRecord record) {
        if (record != null) {
            checkSize(what, record.key(), record.json().length);
        }
    }

    private static void checkSize(String what, String key, long valueBytes) {
        // A key's UTF-8 takes at most three bytes a char: counted by length first, encoded only when close.
        long keyBytes = key == null ? 0 : key.length();
        if (keyBytes * 3 + valueBytes > RecordLimit.MAX_RECORD_BYTES) {
            keyBytes = key.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        }
        if (keyBytes + valueBytes > RecordLimit.MAX_RECORD_BYTES) {
            throw new CommandRejection(
                    ErrorCode.TOO_LARGE,
                    "the command's " + what + " would be a record of " + (keyBytes + valueBytes) + " bytes; at most "
                            + RecordLimit.MAX_RECORD_BYTES + ": split the command");
        }
    }

    EngineResult toResult(CommandRejection rejection) {
        // A namespace's full batches come before its open one: every record of a namespace goes to one partition, in
        // this order.
        List<OutRecord> events = new ArrayList<>(fullEventBatches.size() + eventsByNamespace.size());
        events.addAll(fullEventBatches);
        eventsByNamespace.forEach((ns, batch) -> events.add(OutRecord.ofJson(ns, batch.toJson())));
        return new EngineResult(
                List.copyOf(replies),
                List.copyOf(assignments),
                events,
                List.copyOf(chained),
                List.copyOf(results),
                rejection,
                counts == null ? ChangeCounts.NONE : counts);
    }

    /** Keeps replies only: what a rejected command still produces. */
    void dropAllButReplies() {
        assignments.clear();
        chained.clear();
        results.clear();
        eventsByNamespace.clear();
        fullEventBatches.clear();
        lastBatch = null;
        counts = null;
    }
}
