package io.coordinate.engine.scheduler;

import io.coordinate.engine.state.GroupQueue;
import io.coordinate.engine.state.GroupQueue.ReadyGroup;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which available units of a spec with concurrency groups a request takes (docs/reference.md#concurrency-groups):
 * the best priority first; among equal priority one unit per group in turn, in name order, starting after the group
 * the spec's last request ended on and passing over the groups at their cap or out of tokens. The units without a
 * group take their turn as one more lane, named {@code ""}, which no cap or group rate limit holds. Reads only the
 * groups and units it takes, and the groups it passes over, whatever the number of groups.
 */
public final class GroupRoundRobin {

    /** A unit without a group, as the available index lists it. */
    public record Ungrouped(String name, double priority) {}

    /** A unit taken, and the lane it was taken from ({@code ""}: no group). */
    public record Pick(String name, String lane) {}

    /** A group's {@code group_rate_limit}: whether it may start one more attempt, having {@code taken} in this request. */
    @FunctionalInterface
    public interface Tokens {
        /** No group rate limit: every group may start as many as its cap allows. */
        Tokens UNLIMITED = (group, taken) -> true;

        boolean allow(String group, long taken);
    }

    /** Groups read per scan of a priority's ready groups. */
    private static final int PAGE = 64;

    private final GroupQueue queue;
    private final List<Ungrouped> ungrouped;
    private final int limit;
    private final long cap;
    private final Tokens tokens;
    private final List<Pick> picks = new ArrayList<>();
    /** Per group: its pending units, then plus those taken by this request. */
    private final Map<String, Long> running = new HashMap<>();
    /** Per group: the units taken by this request, at every priority. */
    private final Map<String, Long> takenInRequest = new HashMap<>();
    /** Per group, at the priority taken from now: how many units taken, and the last one. */
    private final Map<String, Long> takenAtLevel = new HashMap<>();

    private final Map<String, String> lastAtLevel = new HashMap<>();
    private int nextUngrouped;
    private double level;

    private GroupRoundRobin(GroupQueue queue, List<Ungrouped> ungrouped, int limit, long cap, Tokens tokens) {
        this.queue = queue;
        this.ungrouped = ungrouped;
        this.limit = limit;
        this.cap = cap;
        this.tokens = tokens;
    }

    /**
     * Up to {@code limit} units, in the order to hand them out.
     *
     * @param ungrouped the best available units without a group, in index order (at least {@code limit} if there are)
     * @param cap {@code group_max_running}; 0: none
     * @param tokens the groups' rate limit, {@link Tokens#UNLIMITED} for none
     */
    public static List<Pick> pick(GroupQueue queue, List<Ungrouped> ungrouped, int limit, long cap, Tokens tokens) {
        GroupRoundRobin robin = new GroupRoundRobin(queue, ungrouped, limit, cap, tokens);
        robin.run();
        return robin.picks;
    }

    private void run() {
        String cursor = queue.cursor();
        Double groupLevel = queue.readyPriority(null);
        while (picks.size() < limit) {
            Double ungroupedLevel =
                    hasUngrouped() ? ungrouped.get(nextUngrouped).priority() : null;
            if (groupLevel == null && ungroupedLevel == null) {
                return;
            }
            level = groupLevel == null
                    ? ungroupedLevel
                    : ungroupedLevel == null ? groupLevel : Math.max(groupLevel, ungroupedLevel);
            boolean groupsAtLevel = groupLevel != null && groupLevel == level;
            takenAtLevel.clear();
            lastAtLevel.clear();
            int before;
            do {
                before = picks.size();
                cursor = sweep(cursor, groupsAtLevel);
            } while (picks.size() > before && picks.size() < limit);
            if (groupsAtLevel) {
                groupLevel = queue.readyPriority(level);
            }
        }
    }

    /**
     * One turn of every lane of this priority after {@code cursor}: the groups after it, the ungrouped lane, the
     * groups up to it. Returns the lane of the last unit taken (the cursor if none).
     */
    private String sweep(String cursor, boolean groupsAtLevel) {
        String last = cursor;
        if (cursor == null) {
            last = takeUngrouped(last);
            return groupsAtLevel ? groups(null, null, last) : last;
        }
        if (groupsAtLevel) {
            last = groups(cursor.isEmpty() ? null : cursor, null, last);
        }
        last = takeUngrouped(last);
        if (groupsAtLevel && !cursor.isEmpty()) {
            last = groups(null, cursor, last);
        }
        return last;
    }

    /** Takes a unit from each group of this priority after {@code after} up to {@code upTo} (null: no bound). */
    private String groups(String after, String upTo, String last) {
        String from = after;
        while (picks.size() < limit) {
            List<ReadyGroup> page = queue.ready(level, from, PAGE);
            for (ReadyGroup group : page) {
                if (picks.size() >= limit || upTo != null && group.group().compareTo(upTo) > 0) {
                    return last;
                }
                if (take(group)) {
                    last = group.group();
                }
            }
            if (page.size() < PAGE) {
                return last;
            }
            from = page.get(page.size() - 1).group();
        }
        return last;
    }

    private boolean take(ReadyGroup ready) {
        String group = ready.group();
        long taken = takenAtLevel.getOrDefault(group, 0L);
        if (taken >= ready.available()) {
            return false;
        }
        long now = running.computeIfAbsent(group, queue::pending);
        if (cap > 0 && now >= cap) {
            return false;
        }
        long takenHere = takenInRequest.getOrDefault(group, 0L);
        if (!tokens.allow(group, takenHere)) {
            return false;
        }
        List<String> next = queue.units(group, level, lastAtLevel.get(group), 1);
        if (next.isEmpty()) {
            return false;
        }
        picks.add(new Pick(next.get(0), group));
        running.put(group, now + 1);
        takenAtLevel.put(group, taken + 1);
        takenInRequest.put(group, takenHere + 1);
        lastAtLevel.put(group, next.get(0));
        return true;
    }

    private String takeUngrouped(String last) {
        if (picks.size() >= limit
                || !hasUngrouped()
                || ungrouped.get(nextUngrouped).priority() != level) {
            return last;
        }
        picks.add(new Pick(ungrouped.get(nextUngrouped++).name(), ""));
        return "";
    }

    private boolean hasUngrouped() {
        return nextUngrouped < ungrouped.size();
    }
}
