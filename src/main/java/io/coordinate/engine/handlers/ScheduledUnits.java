package io.coordinate.engine.handlers;

import io.coordinate.engine.state.MutableSpecState;
import io.coordinate.engine.state.MutableTimeIndexState;
import io.coordinate.engine.state.MutableUnitState;
import io.coordinate.engine.state.codec.TimeIndexKeys.ScheduleFireKey;
import io.coordinate.engine.state.model.CronSchedule;
import io.coordinate.engine.state.model.SpecSchedule;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * The units of cron schedules (docs/reference.md#schedules): the time step adds one at each fire time that has come,
 * as {@code add_work_units} adds a new unit, and moves the schedule's next fire on in the same step, so a replay adds
 * each fire once. A fire whose unit name exists already is skipped.
 */
public final class ScheduledUnits {

    /** The most units the schedules add in one time step; the rest come in the next steps. */
    public static final int MAX_FIRES_PER_STEP = 1000;

    /**
     * A fire the time step sees this long after its time at most, and alone, is on time; later, or with fires after
     * it already past, the app was down and the schedule's {@code catch_up} decides.
     */
    static final long ON_TIME_MILLIS = 60_000;

    private final MutableSpecState specs;
    private final MutableUnitState units;
    private final MutableTimeIndexState timeIndexes;

    public ScheduledUnits(MutableSpecState specs, MutableUnitState units, MutableTimeIndexState timeIndexes) {
        this.specs = specs;
        this.units = units;
        this.timeIndexes = timeIndexes;
    }

    /** Adds the units of the fires due at {@code now}, of at most {@code limit} schedules. */
    public void addDue(long now, int limit) {
        int budget = MAX_FIRES_PER_STEP;
        for (ScheduleFireKey due : timeIndexes.dueScheduleFires(now, Math.min(limit, MAX_FIRES_PER_STEP))) {
            SpecSchedule kept = specs.schedule(due.namespace(), due.spec());
            if (kept == null || kept.nextFire() != due.fireTime()) {
                timeIndexes.dropStaleScheduleFire(due);
            } else if (budget > 0) {
                budget -= fire(due.namespace(), due.spec(), kept, now, budget);
            }
        }
    }

    /** Adds the units of the schedule's due fires, at most {@code budget}, and moves its next fire on. */
    private int fire(String ns, String spec, SpecSchedule kept, long now, int budget) {
        CronSchedule schedule = kept.schedule();
        long first = kept.nextFire();
        long second = FireTimes.after(schedule, first);
        List<Long> fires = new ArrayList<>();
        long next = FireTimes.after(schedule, now);
        if (second > now && now - first <= ON_TIME_MILLIS) {
            fires.add(first);
            next = second;
        } else if (schedule.catchUp() == CronSchedule.CatchUp.ONE) {
            fires.add(FireTimes.latestUpTo(schedule, now));
        } else if (schedule.catchUp() == CronSchedule.CatchUp.ALL) {
            next = first;
            while (next <= now && fires.size() < budget) {
                fires.add(next);
                next = FireTimes.after(schedule, next);
            }
        }
        for (long fire : fires) {
            add(ns, spec, schedule, fire);
        }
        specs.schedule(ns, spec, kept.withNextFire(next));
        return fires.size();
    }

    private void add(String ns, String spec, CronSchedule schedule, long fire) {
        String name = schedule.unitName(spec, fire);
        if (units.get(ns, spec, name) != null) {
            return; // added already: by a producer, or by this fire before a restore
        }
        units.add(
                ns,
                WorkUnitRecord.builder(spec, name)
                        .data(schedule.unitData().deepCopy())
                        .priority(schedule.priority())
                        .status(UnitStatus.AVAILABLE)
                        .build());
    }

    /**
     * {@code set_work_spec}: a new or changed schedule fires next after {@code now} (fires before it existed are not
     * caught up); an unchanged one keeps its next fire; a schedule the data no longer has is dropped.
     */
    static void specSet(
            MutableSpecState specs, String ns, String spec, WorkSpecRecord before, CronSchedule schedule, long now) {
        if (schedule == null && (before == null || !before.data().hasNonNull("schedule"))) {
            return; // had none, has none: nothing read
        }
        SpecSchedule kept = specs.schedule(ns, spec);
        if (schedule == null) {
            specs.schedule(ns, spec, null);
        } else if (kept == null || !kept.schedule().equals(schedule)) {
            specs.schedule(ns, spec, new SpecSchedule(schedule, FireTimes.after(schedule, now)));
        }
    }
}
