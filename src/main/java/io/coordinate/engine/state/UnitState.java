package io.coordinate.engine.state;

import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** Work units, their counts by status and the available index. */
public interface UnitState {

    WorkUnitRecord get(String ns, String spec, String name);

    default WorkUnitRecord get(String ns, UnitRef ref) {
        return get(ns, ref.spec(), ref.name());
    }

    /** Units in name order, strictly after {@code afterName} (null = from the start), at most {@code limit}. */
    List<WorkUnitRecord> list(String ns, String spec, String afterName, int limit);

    /** Unit counts by status, zero counts omitted. */
    Map<UnitStatus, Long> counts(String ns, String spec);

    long count(String ns, String spec, UnitStatus status);

    /**
     * When the spec's unit that has waited longest among those available at {@code now} became available (epoch
     * millis; see {@link WorkUnitRecord#availableSince}), or null when none is available or only units whose time is
     * unknown are. Exact at {@code now} as the counts of the views are, except for a replicated unit whose replica ran
     * out since the last time step: it counts once the time step has given it back.
     */
    Long oldestAvailableSince(String ns, String spec, long now);

    /**
     * The best available units of a spec that have no group: priority descending, then name ascending. Costs
     * O(limit · log n). A grouped unit is in {@link #groups} instead.
     */
    List<String> bestAvailable(String ns, String spec, int limit);

    /**
     * The best available units that {@code accept} takes, in index order, at most {@code limit}, reading at most
     * {@code limit + maxSkipped} index entries: a request for replicas skips the units its host already has, and
     * stops after {@code maxSkipped} of them rather than scan the spec. {@code accept} may read, not write.
     */
    List<String> bestAvailable(String ns, String spec, int limit, int maxSkipped, Predicate<String> accept);

    /**
     * Reads a batch's units in one range scan when their names lie close together, so that the reads that follow
     * cost no lookup each; reads nothing when the range holds more than as many other units again.
     */
    void prefetch(String ns, String spec, List<String> names);

    /** The spec's concurrency groups (docs/reference.md#concurrency-groups). */
    GroupQueue groups(String ns, String spec);
}
