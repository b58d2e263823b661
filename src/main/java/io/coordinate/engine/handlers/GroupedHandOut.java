package io.coordinate.engine.handlers;

import io.coordinate.engine.scheduler.GroupRoundRobin;
import io.coordinate.engine.scheduler.GroupRoundRobin.Pick;
import io.coordinate.engine.scheduler.GroupRoundRobin.Ungrouped;
import io.coordinate.engine.state.MutableUnitState;
import io.coordinate.engine.state.model.GroupPolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * The units a request takes from a spec with concurrency groups ({@link GroupRoundRobin}), and the cursor it leaves
 * for the next request (docs/reference.md#concurrency-groups). A spec without groups never comes here.
 */
final class GroupedHandOut {

    private final List<Pick> picks;

    private GroupedHandOut(List<Pick> picks) {
        this.picks = picks;
    }

    /** The picks of a spec with this policy; null for a spec without groups (null policy). */
    static GroupedHandOut of(CommandContext ctx, String spec, GroupPolicy policy, int max) {
        if (policy == null) {
            return null;
        }
        MutableUnitState units = ctx.units();
        String ns = ctx.namespace();
        List<Ungrouped> ungrouped = new ArrayList<>();
        for (String name : units.bestAvailable(ns, spec, max)) {
            ungrouped.add(new Ungrouped(name, units.available(ns, spec, name).priority()));
        }
        return new GroupedHandOut(GroupRoundRobin.pick(units.groups(ns, spec), ungrouped, max, policy.maxRunning()));
    }

    List<String> names() {
        return picks.stream().map(Pick::name).toList();
    }

    /** Leaves the spec's cursor at the lane of the last of the first {@code used} picks (none used: unmoved). */
    void moveCursor(CommandContext ctx, String spec, int used) {
        if (used > 0) {
            ctx.units()
                    .moveGroupCursor(ctx.namespace(), spec, picks.get(used - 1).lane());
        }
    }
}
