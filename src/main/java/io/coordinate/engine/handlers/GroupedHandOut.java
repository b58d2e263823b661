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
    /** The spec's group rate limit; null for none. */
    private final GroupRateLimits tokens;

    private GroupedHandOut(List<Pick> picks, GroupRateLimits tokens) {
        this.picks = picks;
        this.tokens = tokens;
    }

    /** The picks of a spec with this policy; null for a spec without groups (null policy). */
    static GroupedHandOut of(
            CommandContext ctx, String spec, GroupPolicy policy, int max, RequestRateLimits rateLimits) {
        if (policy == null) {
            return null;
        }
        GroupRateLimits tokens = GroupRateLimits.of(ctx, spec, policy.rateLimit(), rateLimits);
        MutableUnitState units = ctx.units();
        String ns = ctx.namespace();
        List<Ungrouped> ungrouped = new ArrayList<>();
        for (String name : units.bestAvailable(ns, spec, max)) {
            ungrouped.add(new Ungrouped(name, units.get(ns, spec, name).priority()));
        }
        List<Pick> picks = GroupRoundRobin.pick(
                units.groups(ns, spec),
                ungrouped,
                max,
                policy.maxRunning(),
                tokens == null ? GroupRoundRobin.Tokens.UNLIMITED : tokens);
        return new GroupedHandOut(picks, tokens);
    }

    List<String> names() {
        return picks.stream().map(Pick::name).toList();
    }

    /** The pick at {@code index} started an attempt: it takes a token of its group's rate limit. */
    void started(int index) {
        String lane = picks.get(index).lane();
        if (tokens != null && !lane.isEmpty()) {
            tokens.started(lane);
        }
    }

    /**
     * Leaves the spec's cursor at the lane of the last of the first {@code used} picks (none used: unmoved), and the
     * groups' tokens as their started attempts left them.
     */
    void finish(CommandContext ctx, String spec, int used) {
        if (used > 0) {
            ctx.units()
                    .moveGroupCursor(ctx.namespace(), spec, picks.get(used - 1).lane());
        }
        if (tokens != null) {
            tokens.takeTokens();
        }
    }
}
