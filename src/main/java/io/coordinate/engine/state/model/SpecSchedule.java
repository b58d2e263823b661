package io.coordinate.engine.state.model;

/**
 * A spec's schedule as the time step keeps it: the schedule and its next fire time, which moves on with each time
 * step that adds the fire's unit, so that a replay adds each fire once.
 *
 * @param nextFire epoch millis of the next fire; {@link #NEVER} when the expression fires no more
 */
public record SpecSchedule(CronSchedule schedule, long nextFire) {

    public static final long NEVER = Long.MAX_VALUE;

    public SpecSchedule withNextFire(long next) {
        return new SpecSchedule(schedule, next);
    }
}
