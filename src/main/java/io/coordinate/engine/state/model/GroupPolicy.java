package io.coordinate.engine.state.model;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A spec's concurrency groups (docs/reference.md#concurrency-groups): a spec that has one takes its units round robin
 * among its groups.
 *
 * @param maxRunning {@code group_max_running}: at most this many pending units per group; 0 = no cap
 * @param groupedUnits whether a unit with a group was ever added to the spec: its grouped units are then only in
 *     their groups' indexes, so its requests must read those
 * @param rateLimit {@code group_rate_limit}: each group's starts take tokens of a bucket of its own; null = none
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GroupPolicy(long maxRunning, boolean groupedUnits, RateLimit rateLimit) {

    /** The policy of these settings; null when there is no cap, no rate limit and no grouped unit: the path of old. */
    public static GroupPolicy of(long maxRunning, boolean groupedUnits, RateLimit rateLimit) {
        return maxRunning <= 0 && !groupedUnits && rateLimit == null
                ? null
                : new GroupPolicy(Math.max(0, maxRunning), groupedUnits, rateLimit);
    }

    /** Whether a spec with this policy ({@code null}: none) has seen a grouped unit. */
    public static boolean hasGroupedUnits(GroupPolicy policy) {
        return policy != null && policy.groupedUnits;
    }

    /** This policy ({@code null}: none) marked as having grouped units. */
    public static GroupPolicy withGroupedUnits(GroupPolicy policy) {
        return policy == null ? of(0, true, null) : of(policy.maxRunning, true, policy.rateLimit);
    }
}
