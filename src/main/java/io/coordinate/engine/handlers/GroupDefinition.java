package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.state.model.GroupPolicy;
import io.coordinate.engine.state.model.WorkSpecMeta;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.protocol.Limits;
import java.util.List;

/**
 * A spec's concurrency groups (docs/reference.md#concurrency-groups): its {@code group_max_running} and
 * {@code group_rate_limit} keys, and whether it has grouped units, which {@code add_work_units} marks and a reload
 * keeps.
 */
final class GroupDefinition {

    private static final String KEY = "group_max_running";

    private GroupDefinition() {}

    /**
     * The policy of the spec's data alone; null when {@code group_max_running} is absent, null or 0 and
     * {@code group_rate_limit} absent or null.
     */
    static GroupPolicy parse(JsonNode data) {
        JsonNode value = data.get(KEY);
        long cap = value == null || value.isNull()
                ? 0
                : Limits.wholeNumber(value, "work spec key \"" + KEY + "\"", 0, Limits.MAX_COUNT);
        return GroupPolicy.of(cap, false, RateLimitDefinition.parse(data, RateLimitDefinition.GROUP_KEY));
    }

    /** The metadata of a reload, still marked as having grouped units if the spec had some. */
    static WorkSpecMeta keepGroupedUnits(WorkSpecMeta meta, WorkSpecRecord before) {
        if (before == null || !GroupPolicy.hasGroupedUnits(before.meta().groups())) {
            return meta;
        }
        return meta.withGroups(GroupPolicy.withGroupedUnits(meta.groups()));
    }

    /** Marks the spec as having grouped units when one of {@code groups} (the added units' groups) is not null. */
    static void markGroupedUnits(CommandContext ctx, WorkSpecRecord spec, List<String> groups) {
        GroupPolicy policy = spec.meta().groups();
        if (GroupPolicy.hasGroupedUnits(policy) || groups.stream().allMatch(group -> group == null)) {
            return;
        }
        ctx.specs()
                .write(
                        ctx.namespace(),
                        spec,
                        spec.withMeta(spec.meta().withGroups(GroupPolicy.withGroupedUnits(policy))));
    }
}
