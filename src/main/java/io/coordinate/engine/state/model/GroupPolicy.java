package io.coordinate.engine.state.model;

/**
 * A spec's concurrency groups (docs/reference.md#concurrency-groups): a spec that has one takes its units round robin
 * among its groups.
 *
 * @param maxRunning {@code group_max_running}: at most this many pending units per group; 0 = no cap
 * @param groupedUnits whether a unit with a group was ever added to the spec: its grouped units are then only in
 *     their groups' indexes, so its requests must read those
 */
public record GroupPolicy(long maxRunning, boolean groupedUnits) {

    /** The policy of these settings; null when there is neither a cap nor a grouped unit: the path of old. */
    public static GroupPolicy of(long maxRunning, boolean groupedUnits) {
        return maxRunning <= 0 && !groupedUnits ? null : new GroupPolicy(Math.max(0, maxRunning), groupedUnits);
    }

    /** Whether a spec with this policy ({@code null}: none) has seen a grouped unit. */
    public static boolean hasGroupedUnits(GroupPolicy policy) {
        return policy != null && policy.groupedUnits;
    }
}
