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

    /** The metadata of a spec without replication, retention, retry policy, rate limit or groups. */
    public WorkSpecMeta(
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
            double minGb) {
        this(
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
                null,
                null,
                null,
                null,
                null);
    }

    /** The metadata of a spec without rate limit or concurrency groups. */
    public WorkSpecMeta(
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
            RetryPolicy retry) {
        this(
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
                null,
                null);
    }

    public WorkSpecMeta withNextContinuous(Long time) {
        return new WorkSpecMeta(
                priority,
                weight,
                paused,
                continuous,
                canBeContinuous,
                interval,
                time,
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

    public WorkSpecMeta withGroups(GroupPolicy policy) {
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
                policy);
    }
}
