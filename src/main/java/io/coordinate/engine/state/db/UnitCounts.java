package io.coordinate.engine.state.db;

import io.coordinate.engine.state.codec.UnitKeys;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.storage.KeyValueIterator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A spec's unit counts by status ({@link UnitKeys#count}) and its available units' counts by the time they became
 * available ({@link UnitKeys#availableSince}). A batch command moves one count hundreds of times: the moves are summed
 * here and written once per count, at {@link #flush}; the reads add them to what is stored.
 */
final class UnitCounts {

    private static final UnitStatus[] STATUSES = UnitStatus.values();

    private final DbContext db;
    /** The unit counts' moves not written yet, per spec and status. */
    private final Map<SpecKey, long[]> countDeltas = new LinkedHashMap<>();
    /** The spec whose counts moved last and its moves: a batch command moves one spec's counts hundreds of times. */
    private SpecKey lastCounted;

    private long[] lastCountDeltas;
    /** The moves of the counts by available time not written yet. */
    private final Map<SinceKey, Long> sinceDeltas = new LinkedHashMap<>();

    UnitCounts(DbContext db) {
        this.db = db;
    }

    /** The spec's unit counts by status, zero counts omitted. */
    Map<UnitStatus, Long> of(String ns, String spec) {
        Map<UnitStatus, Long> counts = new EnumMap<>(UnitStatus.class);
        try (KeyValueIterator it = db.store.prefix(UnitKeys.counts(ns, spec))) {
            while (it.hasNext()) {
                KeyValueIterator.Entry e = it.next();
                counts.put(UnitKeys.countStatus(e.key()), ValueCodec.decodeLong(e.value()));
            }
        }
        long[] deltas = countDeltas.get(new SpecKey(ns, spec));
        if (deltas != null) {
            for (UnitStatus status : STATUSES) {
                counts.merge(status, deltas[status.ordinal()], Long::sum);
            }
        }
        counts.values().removeIf(value -> value == 0);
        return counts;
    }

    long of(String ns, String spec, UnitStatus status) {
        long[] deltas = countDeltas.get(new SpecKey(ns, spec));
        return ValueCodec.decodeLong(db.store.get(UnitKeys.count(ns, spec, status)))
                + (deltas == null ? 0 : deltas[status.ordinal()]);
    }

    /** Moves the spec's count of units of {@code status} by {@code delta}. */
    void move(String ns, String spec, UnitStatus status, long delta) {
        SpecKey last = lastCounted;
        if (last == null || !last.is(ns, spec)) {
            lastCounted = new SpecKey(ns, spec);
            lastCountDeltas = countDeltas.computeIfAbsent(lastCounted, key -> new long[STATUSES.length]);
        }
        lastCountDeltas[status.ordinal()] += delta;
    }

    /** Writes this command's moves: once per count, however many units moved it. */
    void flush() {
        countDeltas.forEach((spec, deltas) -> {
            for (UnitStatus status : STATUSES) {
                if (deltas[status.ordinal()] != 0) {
                    db.addToCounter(UnitKeys.count(spec.ns(), spec.name(), status), deltas[status.ordinal()]);
                }
            }
        });
        countDeltas.clear();
        lastCounted = null;
        sinceDeltas.forEach((since, delta) -> {
            if (delta != 0) {
                db.addToCounter(UnitKeys.availableSince(since.ns(), since.spec(), since.time()), delta);
            }
        });
        sinceDeltas.clear();
    }

    /** Drops the counts' moves of a spec ({@code spec == null}: of every spec of the namespace) that went. */
    void forget(String ns, String spec) {
        countDeltas
                .keySet()
                .removeIf(count ->
                        count.ns().equals(ns) && (spec == null || count.name().equals(spec)));
        lastCounted = null;
        sinceDeltas
                .keySet()
                .removeIf(since ->
                        since.ns().equals(ns) && (spec == null || since.spec().equals(spec)));
    }

    /**
     * Moves the count of a spec's available units by the time they became available ({@link UnitKeys#availableSince}).
     * The units of a batch share their time: summed here, their moves cost one write per command and time, not one
     * per unit.
     */
    void moveSince(String ns, String spec, Long time, long delta) {
        sinceDeltas.merge(new SinceKey(ns, spec, time), delta, Long::sum);
    }

    /** A spec and an available time, whose count moves. */
    private record SinceKey(String ns, String spec, Long time) {}
}
