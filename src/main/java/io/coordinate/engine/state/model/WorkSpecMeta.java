package io.coordinate.engine.state.model;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The scheduler's view of a work spec (docs/reference.md#set_work_spec), derived from its data on every
 * {@code set_work_spec} and partly changeable by {@code set_work_spec_meta}. The counts are not stored here but kept as
 * counters.
 *
 * @param nextContinuous epoch millis before which no continuous unit is created; null = none yet
 * @param replication the replication settings of a replicated spec (docs/replication.md#spec-keys); null = an ordinary
 *     spec
 * @param retention seconds after which finished and failed units are purged; null = never
 * @param retry the retry policy (docs/reference.md#retries); null = none: a failure is permanent, an expired unit
 *     is available again at once
 * @param rateLimit the spec's {@code rate_limit} (docs/reference.md#rate-limits); null = none
 * @param groups its concurrency groups (docs/reference.md#concurrency-groups); null = none
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WorkSpecMeta(
        double priority,
        double weight,
        boolean paused,
        boolean continuous,
        boolean canBeContinuous,
        double interval,
        Long nextContinuous,
        long maxRunning,
        long maxAttemptsReturned,
        long maxRetries,
        String nextWorkSpecName,
        String runtime,
        double minGb,
        ReplicationConfig replication,
        Double retention,
        RetryPolicy retry,
        RateLimit rateLimit,
        GroupPolicy groups) {

    /** A spec's metadata when its data sets nothing: the start of a {@link #toBuilder} in tests and tools. */
    public static final WorkSpecMeta DEFAULTS =
            new WorkSpecMeta(0, 20, false, false, false, 0, null, 0, 0, 0, "", "", 0, null, null, null, null, null);

    public WorkSpecMeta withNextContinuous(Long time) {
        return toBuilder().nextContinuous(time).build();
    }

    public WorkSpecMeta withGroups(GroupPolicy policy) {
        return toBuilder().groups(policy).build();
    }

    /** A builder holding this metadata's fields: the way to make a changed copy. */
    public Builder toBuilder() {
        return new Builder();
    }

    /**
     * A changed copy in the making. Each field starts as the enclosing record's, so a new component is one field line
     * and its setter here, and the canonical constructor in {@link #build} makes the compiler ask for it.
     */
    public final class Builder {
        private double priority = WorkSpecMeta.this.priority;
        private double weight = WorkSpecMeta.this.weight;
        private boolean paused = WorkSpecMeta.this.paused;
        private boolean continuous = WorkSpecMeta.this.continuous;
        private boolean canBeContinuous = WorkSpecMeta.this.canBeContinuous;
        private double interval = WorkSpecMeta.this.interval;
        private Long nextContinuous = WorkSpecMeta.this.nextContinuous;
        private long maxRunning = WorkSpecMeta.this.maxRunning;
        private long maxAttemptsReturned = WorkSpecMeta.this.maxAttemptsReturned;
        private long maxRetries = WorkSpecMeta.this.maxRetries;
        private String nextWorkSpecName = WorkSpecMeta.this.nextWorkSpecName;
        private String runtime = WorkSpecMeta.this.runtime;
        private double minGb = WorkSpecMeta.this.minGb;
        private ReplicationConfig replication = WorkSpecMeta.this.replication;
        private Double retention = WorkSpecMeta.this.retention;
        private RetryPolicy retry = WorkSpecMeta.this.retry;
        private RateLimit rateLimit = WorkSpecMeta.this.rateLimit;
        private GroupPolicy groups = WorkSpecMeta.this.groups;

        private Builder() {}

        public Builder priority(double value) {
            priority = value;
            return this;
        }

        public Builder weight(double value) {
            weight = value;
            return this;
        }

        public Builder paused(boolean value) {
            paused = value;
            return this;
        }

        public Builder continuous(boolean value) {
            continuous = value;
            return this;
        }

        public Builder canBeContinuous(boolean value) {
            canBeContinuous = value;
            return this;
        }

        public Builder interval(double value) {
            interval = value;
            return this;
        }

        public Builder nextContinuous(Long value) {
            nextContinuous = value;
            return this;
        }

        public Builder maxRunning(long value) {
            maxRunning = value;
            return this;
        }

        public Builder maxAttemptsReturned(long value) {
            maxAttemptsReturned = value;
            return this;
        }

        public Builder maxRetries(long value) {
            maxRetries = value;
            return this;
        }

        public Builder nextWorkSpecName(String value) {
            nextWorkSpecName = value;
            return this;
        }

        public Builder runtime(String value) {
            runtime = value;
            return this;
        }

        public Builder minGb(double value) {
            minGb = value;
            return this;
        }

        public Builder replication(ReplicationConfig value) {
            replication = value;
            return this;
        }

        public Builder retention(Double value) {
            retention = value;
            return this;
        }

        public Builder retry(RetryPolicy value) {
            retry = value;
            return this;
        }

        public Builder rateLimit(RateLimit value) {
            rateLimit = value;
            return this;
        }

        public Builder groups(GroupPolicy value) {
            groups = value;
            return this;
        }

        public WorkSpecMeta build() {
            return new WorkSpecMeta(
                    priority,
                    weight,
                    paused,
                    continuous,
                    canBeContinuous,
                    interval,
                    nextContinuous,
                    maxRunning,
                    maxAttemptsReturned,
                    maxRetries,
                    nextWorkSpecName,
                    runtime,
                    minGb,
                    replication,
                    retention,
                    retry,
                    rateLimit,
                    groups);
        }
    }
}
