package io.coordinate.engine.handlers;

import io.coordinate.engine.state.StateReader;
import io.coordinate.engine.state.codec.TimeIndexKeys;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.view.RetryView;
import io.coordinate.engine.view.StateViews;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The units listing's filter {@code retrying} (docs/reference.md#unit): the units delayed now after an attempt that
 * ended retryable or expired. Only lists take it; it adds those units to what the rest of the query selects.
 */
public final class RetryingUnits {

    private RetryingUnits() {}

    /** The units that {@code query} selects or that are retrying now, in name order, at most its limit. */
    public static List<WorkUnitRecord> select(UnitQuery query, StateReader state, String ns, String spec, long now) {
        StateViews views = new StateViews(state, ns, now);
        Set<UnitStatus> statuses = query.statuses();
        UnitQuery scan = query;
        if (query.names() == null && statuses == null) {
            Set<String> candidates = candidates(state, ns, spec, now);
            if (candidates != null) {
                scan = new UnitQuery(candidates, null, query.previousName(), query.limit());
            }
        }
        return scan.select(
                state,
                ns,
                spec,
                unit -> retrying(state, views, ns, unit)
                        || statuses != null
                                && statuses.contains(views.unitNow(unit).status()));
    }

    /** Whether the unit is retrying now; its latest attempt is read only for a unit delayed now. */
    private static boolean retrying(StateReader state, StateViews views, String ns, WorkUnitRecord unit) {
        if (views.unitNow(unit).status() != UnitStatus.DELAYED) {
            return false;
        }
        AttemptRecord latest = state.attempts().latestOfUnit(ns, unit.spec(), unit.name());
        return latest != null && RetryView.retrying(UnitStatus.DELAYED, views.attemptStatus(latest));
    }

    /**
     * The names of the spec's units that may be retrying now, in name order, from the time indexes: the units delayed
     * past now, and those pending on an attempt whose lease ran out since the last time step (a unit re-added with a
     * delay while it ran rests delayed). Null when the delayed index holds more entries than the spec has units, so
     * that reading the spec costs less.
     */
    private static Set<String> candidates(StateReader state, String ns, String spec, long now) {
        Set<String> names = new TreeSet<>(UnitQuery::compareNames);
        Map<UnitStatus, Long> counts = state.units().counts(ns, spec);
        if (counts.getOrDefault(UnitStatus.DELAYED, 0L) > 0) {
            long units = counts.values().stream().mapToLong(Long::longValue).sum();
            int budget = (int) Math.min(units, Integer.MAX_VALUE - 1);
            List<TimeIndexKeys.DelayedUnitKey> delayed = state.timeIndexes().delayedUnitsFrom(now + 1, budget + 1);
            if (delayed.size() > budget) {
                return null;
            }
            for (TimeIndexKeys.DelayedUnitKey entry : delayed) {
                if (entry.namespace().equals(ns) && entry.spec().equals(spec)) {
                    names.add(entry.unit());
                }
            }
        }
        if (counts.getOrDefault(UnitStatus.PENDING, 0L) > 0) {
            for (TimeIndexKeys.AttemptDeadlineKey due :
                    state.timeIndexes().dueAttemptDeadlines(now, Integer.MAX_VALUE)) {
                AttemptRecord attempt =
                        due.namespace().equals(ns) ? state.attempts().get(ns, due.attemptSeq()) : null;
                if (attempt != null && attempt.spec().equals(spec)) {
                    names.add(attempt.unit());
                }
            }
        }
        return names;
    }
}
