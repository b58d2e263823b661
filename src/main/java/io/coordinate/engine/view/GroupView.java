package io.coordinate.engine.view;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.GroupQueue;
import io.coordinate.engine.state.UnitState;
import io.coordinate.engine.state.model.GroupPolicy;
import io.coordinate.engine.state.model.WorkSpecRecord;

/** A spec's concurrency groups as its {@code meta} shows them (docs/reference.md#concurrency-groups). */
public final class GroupView {

    private GroupView() {}

    /**
     * Adds {@code group_max_running} and {@code groups_at_cap} to {@code meta} when the spec caps its groups, and
     * {@code group_rate_limit} (its settings: the tokens are per group) when it limits their rate.
     */
    static ObjectNode put(ObjectNode meta, WorkSpecRecord spec, GroupQueue groups) {
        GroupPolicy policy = spec.meta().groups();
        if (policy != null && policy.maxRunning() > 0) {
            meta.put("group_max_running", policy.maxRunning());
            meta.put("groups_at_cap", groups.atCap(policy.maxRunning()));
        }
        if (policy != null && policy.rateLimit() != null) {
            meta.set("group_rate_limit", RateLimitView.settings(policy.rateLimit()));
        }
        return meta;
    }

    /** How many of the spec's groups are at its {@code group_max_running}; null when it caps none. */
    public static Long atCap(UnitState units, String ns, WorkSpecRecord spec) {
        GroupPolicy policy = spec.meta().groups();
        return policy == null || policy.maxRunning() <= 0
                ? null
                : units.groups(ns, spec.name()).atCap(policy.maxRunning());
    }
}
