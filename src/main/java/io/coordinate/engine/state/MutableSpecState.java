package io.coordinate.engine.state;

import io.coordinate.engine.state.model.SpecSchedule;
import io.coordinate.engine.state.model.TokenBucket;
import io.coordinate.engine.state.model.WorkSpecRecord;

public interface MutableSpecState extends SpecState {

    void write(String ns, WorkSpecRecord before, WorkSpecRecord after);

    /** A retry of the spec took its slot: the next one is free at {@code next} (epoch millis). No event. */
    void moveRetrySlot(String ns, String spec, long next);

    /**
     * The spec's schedule from now on, null for none: set, changed or dropped with the spec's data, or its next fire
     * moved on by the time step. Keeps the index of next fires. No event (the spec's own change tells).
     */
    void schedule(String ns, String spec, SpecSchedule schedule);

    /** Attempts of the spec took tokens of its rate limit: the bucket as it is after them. No event. */
    void takeTokens(String ns, String spec, TokenBucket bucket);

    /** Attempts of one group of the spec took tokens of its group rate limit: the bucket after them. No event. */
    void takeGroupTokens(String ns, String spec, String group, TokenBucket bucket);

    /**
     * Deletes a spec with its retry slot, its schedule, its rate-limit tokens (its groups' too), all its units, their attempts and every
     * index entry of them.
     */
    void delete(String ns, WorkSpecRecord spec);
}
