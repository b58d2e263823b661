package io.coordinate.engine.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.StateReader;
import io.coordinate.engine.state.codec.TimeIndexKeys;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.ChildState;
import io.coordinate.engine.state.model.Replica;
import io.coordinate.engine.state.model.ReplicationState;
import io.coordinate.engine.state.model.UnitFamily;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkSpecMeta;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.state.model.WorkerRecord;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * JSON views of the state for replies and queries, exact at {@code now}: an attempt past its expiration is
 * shown expired and its unit available, a delayed unit whose time has come is shown available, even if the
 * engine's time step has not run yet.
 */
public final class StateViews {

    /** A unit view lists at most this many children of each kind, and heirs; the counts tell the rest. */
    public static final int MAX_LINKS_SHOWN = 100;

    private final StateReader state;
    private final String ns;
    private final long now;
    private final ReplicationView replication;

    public StateViews(StateReader state, String ns, long now) {
        this.state = state;
        this.ns = ns;
        this.now = now;
        this.replication = new ReplicationView(state, ns, now);
    }

    // --- status as of now ---

    public AttemptStatus attemptStatus(AttemptRecord attempt) {
        if (attempt.status() == AttemptStatus.PENDING && attempt.expirationTime() < now) {
            return AttemptStatus.EXPIRED;
        }
        return attempt.status();
    }

    /** The unit's status now, and the attempt that is active now (null when none). */
    public UnitNow unitNow(WorkUnitRecord unit) {
        AttemptRecord active =
                unit.activeAttempt() == null ? null : state.attempts().get(ns, unit.activeAttempt());
        UnitStatus replicated = unit.replication() == null ? null : replication.statusNow(unit);
        if (replicated != null) {
            // a replica past its deadline: the round as the time step will leave it, its canonical replica active if
            // any
            Long canonical = replicated == UnitStatus.FINISHED
                    ? replication.roundNow(unit).canonical()
                    : null;
            return new UnitNow(
                    replicated, canonical == null ? active : state.attempts().get(ns, canonical));
        }
        UnitStatus status = unit.status();
        if (status == UnitStatus.PENDING && active != null && attemptStatus(active) == AttemptStatus.EXPIRED) {
            active = null;
            status = restingStatus(unit);
        } else if (status == UnitStatus.DELAYED) {
            status = restingStatus(unit);
        }
        return new UnitNow(status, active);
    }

    private UnitStatus restingStatus(WorkUnitRecord unit) {
        return unit.notBefore() != null && now < unit.notBefore() ? UnitStatus.DELAYED : UnitStatus.AVAILABLE;
    }

    /** Unit counts by status now, zero counts omitted. */
    public Map<UnitStatus, Long> counts(String spec) {
        Map<UnitStatus, Long> counts = state.units().counts(ns, spec);
        Long delayed = counts.get(UnitStatus.DELAYED);
        Long pending = counts.get(UnitStatus.PENDING);
        if ((delayed == null || delayed == 0)
                && (pending == null || pending == 0)
                && (!counts.containsKey(UnitStatus.AVAILABLE) || !replicated(spec))) {
            return counts; // (an available replicated unit may have a replica past its deadline)
        }
        java.util.Set<String> released = new java.util.HashSet<>();
        java.util.Set<String> replicatedSeen = new java.util.HashSet<>();
        // The counters are exact as of the engine's last command or time step. Only the units whose time has
        // come since then need a second look, and the two time indexes hold exactly those (plus stale entries,
        // which are re-checked here as the time step re-checks them).
        for (TimeIndexKeys.DelayedUnitKey due : state.timeIndexes().dueDelayedUnits(now, Integer.MAX_VALUE)) {
            if (due.namespace().equals(ns) && due.spec().equals(spec)) {
                WorkUnitRecord unit = state.units().get(ns, spec, due.unit());
                if (unit != null
                        && unit.status() == UnitStatus.DELAYED
                        && Objects.equals(unit.notBefore(), due.notBefore())) {
                    move(counts, UnitStatus.DELAYED, UnitStatus.AVAILABLE);
                    released.add(unit.name());
                }
            }
        }
        for (TimeIndexKeys.AttemptDeadlineKey due : state.timeIndexes().dueAttemptDeadlines(now, Integer.MAX_VALUE)) {
            if (!due.namespace().equals(ns)) {
                continue;
            }
            AttemptRecord attempt = state.attempts().get(ns, due.attemptSeq());
            if (attempt == null
                    || !attempt.spec().equals(spec)
                    || attempt.status() != AttemptStatus.PENDING
                    || attempt.expirationTime() != due.expiration()) {
                continue;
            }
            WorkUnitRecord unit = state.units().get(ns, spec, attempt.unit());
            if (unit != null
                    && unit.status() == UnitStatus.PENDING
                    && unit.activeAttempt() != null
                    && unit.activeAttempt() == attempt.seq()) {
                move(counts, UnitStatus.PENDING, restingStatus(unit));
            } else if (unit != null && attempt.isReplica() && replicatedSeen.add(unit.name())) {
                UnitStatus replicated = replication.statusNow(unit);
                UnitStatus counted = released.contains(unit.name()) ? UnitStatus.AVAILABLE : unit.status();
                if (replicated != null && replicated != counted) {
                    move(counts, counted, replicated);
                }
            }
        }
        return counts;
    }

    private boolean replicated(String spec) {
        WorkSpecRecord record = state.specs().get(ns, spec);
        return record != null && record.meta().replication() != null;
    }

    private static void move(Map<UnitStatus, Long> counts, UnitStatus from, UnitStatus to) {
        counts.merge(from, -1L, Long::sum);
        if (counts.get(from) == 0) {
            counts.remove(from);
        }
        counts.merge(to, 1L, Long::sum);
    }

    // --- JSON ---

    public ObjectNode spec(WorkSpecRecord spec) {
        ObjectNode node = Json.object();
        node.put("name", spec.name());
        node.set("data", spec.data());
        Map<UnitStatus, Long> counts = counts(spec.name());
        ObjectNode meta =
                GroupView.put(meta(spec.meta(), counts), spec, state.units().groups(ns, spec.name()));
        RateLimitView.put(meta, state.specs(), ns, spec, now);
        ScheduleView.put(meta, state.specs(), ns, spec);
        node.set("meta", meta);
        node.set("counts", counts(counts));
        return node;
    }

    public static ObjectNode counts(Map<UnitStatus, Long> counts) {
        ObjectNode node = Json.object();
        for (UnitStatus status : UnitStatus.values()) {
            Long count = counts.get(status);
            if (count != null && count != 0) {
                node.put(status.wireName(), count);
            }
        }
        return node;
    }

    public static ObjectNode meta(WorkSpecMeta meta, Map<UnitStatus, Long> counts) {
        ObjectNode node = Json.object();
        node.set("priority", Numbers.node(meta.priority()));
        node.set("weight", Numbers.node(meta.weight()));
        node.put("paused", meta.paused());
        node.put("continuous", meta.continuous());
        node.put("can_be_continuous", meta.canBeContinuous());
        node.set("interval", Numbers.node(meta.interval()));
        if (meta.nextContinuous() == null) {
            node.putNull("next_continuous");
        } else {
            node.put("next_continuous", Times.format(meta.nextContinuous()));
        }
        node.put("max_running", meta.maxRunning());
        node.put("max_attempts_returned", meta.maxAttemptsReturned());
        node.put("max_retries", meta.maxRetries());
        node.put("next_work_spec_name", meta.nextWorkSpecName());
        node.put("runtime", meta.runtime());
        node.set("min_gb", Numbers.node(meta.minGb()));
        node.put("available_count", counts.getOrDefault(UnitStatus.AVAILABLE, 0L));
        node.put("pending_count", counts.getOrDefault(UnitStatus.PENDING, 0L));
        if (meta.replication() != null) {
            node.set("replication", ReplicationView.config(meta.replication()));
        }
        if (meta.retention() != null) {
            node.set("retention", Numbers.node(meta.retention()));
        }
        if (meta.retry() != null) {
            node.set("retry", RetryPolicyView.json(meta.retry()));
        }
        return node;
    }

    /** The short form of a unit, for lists. */
    public ObjectNode unitSummary(WorkUnitRecord unit) {
        return summary(unit, state.attempts().latestOfUnit(ns, unit.spec(), unit.name()));
    }

    private ObjectNode summary(WorkUnitRecord unit, AttemptRecord latest) {
        UnitNow current = unitNow(unit);
        ObjectNode node = Json.object();
        node.put("name", unit.name());
        node.put("status", current.status().wireName());
        node.set("priority", Numbers.node(unit.priority()));
        if (unit.group() != null) {
            node.put("group", unit.group());
        }
        node.set("data", data(unit, current));
        node.put("not_before", unit.notBefore() == null ? null : Times.format(unit.notBefore()));
        node.put(
                "active_attempt",
                current.active() == null ? null : current.active().id());
        AttemptStatus latestStatus = latest == null ? null : attemptStatus(latest);
        RetryView.put(node, unit, current.status(), latestStatus, latest == null ? null : latest.data());
        return node;
    }

    /**
     * What a unit shows as its data: a failure from its family, else a replicated unit's error mask, else its active
     * attempt's data (a replicated unit's canonical replica), else its own.
     */
    private JsonNode data(WorkUnitRecord unit, UnitNow current) {
        if (current.status() == UnitStatus.FAILED
                && unit.family() != null
                && unit.family().failure() != null) {
            return unit.family().failure();
        }
        if (current.status() == UnitStatus.FAILED && unit.replication() != null) {
            ReplicationState round = replication.roundNow(unit);
            if (round.errorMask() != 0) {
                return ErrorMask.failure(round.errorMask());
            }
        }
        return current.active() != null ? current.active().data() : unit.data();
    }

    /** The full unit: summary plus its attempt history and its links (docs/children-and-heirs.md#what-you-see). */
    public ObjectNode unit(WorkUnitRecord unit) {
        List<AttemptRecord> history = state.attempts().ofUnit(ns, unit.spec(), unit.name());
        ObjectNode node = summary(unit, history.isEmpty() ? null : history.get(history.size() - 1));
        node.put("work_spec_name", unit.spec());
        ArrayNode attempts = node.putArray("attempts");
        for (AttemptRecord attempt : history) {
            attempts.add(attempt(attempt));
        }
        UnitFamily family = unit.family();
        UnitRef self = UnitRef.of(unit);
        node.set("parent", ref(family == null ? null : family.parent()));
        node.set("predecessor", ref(family == null ? null : family.predecessor()));
        ObjectNode children = node.putObject("children");
        ObjectNode childCounts = Json.object();
        for (ChildState childState : ChildState.values()) {
            long count = family == null ? 0 : state.family().childCount(ns, self, childState);
            childCounts.put(childState.wireName(), count);
            children.set(
                    childState.wireName(),
                    refs(count == 0 ? List.of() : state.family().children(ns, self, childState, MAX_LINKS_SHOWN)));
        }
        children.set("counts", childCounts);
        long heirs = family == null ? 0 : state.family().heirCount(ns, self);
        node.set("heirs", refs(heirs == 0 ? List.of() : state.family().heirs(ns, self, MAX_LINKS_SHOWN)));
        node.put("heir_count", heirs);
        ObjectNode replicas = replication.of(unit);
        if (replicas != null) {
            // docs/replication.md#what-you-see: only for a unit of a replicated spec or with replicas
            node.set("replication", replicas);
        }
        if (unit.purgeAt() != null && unit.status().isFinal()) {
            node.put("purge_at", Times.format(unit.purgeAt()));
        }
        return node;
    }

    private static JsonNode ref(UnitRef ref) {
        if (ref == null) {
            return Json.MAPPER.nullNode();
        }
        ObjectNode node = Json.object();
        node.put("work_spec_name", ref.spec());
        node.put("work_unit_name", ref.name());
        return node;
    }

    private static ArrayNode refs(List<UnitRef> refs) {
        ArrayNode list = Json.MAPPER.createArrayNode();
        refs.forEach(r -> list.add(ref(r)));
        return list;
    }

    public ObjectNode attempt(AttemptRecord attempt) {
        ObjectNode node = Json.object();
        node.put("attempt_id", attempt.id());
        node.put("work_spec_name", attempt.spec());
        node.put("work_unit_name", attempt.unit());
        node.put("worker", attempt.worker());
        node.put("status", attemptStatus(attempt).wireName());
        node.set("data", attempt.data());
        node.put("start_time", Times.format(attempt.startTime()));
        node.put("expiration_time", Times.format(attempt.expirationTime()));
        if (attempt.endTime() != null) {
            node.put("end_time", Times.format(attempt.endTime()));
        } else {
            node.putNull("end_time");
        }
        if (attempt.progress() != null) {
            node.set("progress", ProgressView.of(attempt.progress()));
        }
        WorkUnitRecord unit = state.units().get(ns, attempt.spec(), attempt.unit());
        ReplicationState round = attempt.isReplica() && unit != null ? replication.roundNow(unit) : null;
        Replica replica = round == null ? null : round.replica(attempt.seq());
        if (replica != null) {
            // a replica of the unit's current round is active while it runs; its outcome and validation are the round's
            node.put("active", attemptStatus(attempt) == AttemptStatus.PENDING);
            ObjectNode replicaNode = node.putObject("replica");
            replicaNode.put("host", replica.host());
            if (replica.outcome() == null) {
                replicaNode.putNull("outcome");
            } else {
                replicaNode.put("outcome", replica.outcome().wireName());
            }
            replicaNode.put("validate_state", replica.validateState().wireName());
            replicaNode.put("canonical", round.canonical() != null && round.canonical() == attempt.seq());
            return node;
        }
        node.put(
                "active",
                unit != null
                        && unit.activeAttempt() != null
                        && unit.activeAttempt() == attempt.seq()
                        && attemptStatus(attempt) != AttemptStatus.EXPIRED);
        return node;
    }

    public ObjectNode worker(WorkerRecord worker) {
        ObjectNode node = Json.object();
        node.put("name", worker.name());
        if (worker.parent() == null) {
            node.putNull("parent");
        } else {
            node.put("parent", worker.parent());
        }
        ArrayNode children = node.putArray("children");
        state.workers().children(ns, worker.name()).forEach(children::add);
        node.put("active", worker.active());
        node.put("mode", worker.mode());
        node.set("data", worker.data());
        node.put("expiration", Times.format(worker.expiration()));
        node.put("expired", worker.expiration() < now);
        node.put("last_update", Times.format(worker.lastUpdate()));
        node.set("active_attempts", attemptIds(activeAttempts(worker.name())));
        node.set("attempts", attemptIds(state.attempts().ofWorker(ns, worker.name())));
        ArrayNode childAttempts = Json.MAPPER.createArrayNode();
        for (String child : state.workers().children(ns, worker.name())) {
            activeAttempts(child).forEach(a -> childAttempts.add(a.id()));
        }
        node.set("child_attempts", childAttempts);
        if (worker.reliability() != null) {
            node.set("reliability", ReplicationView.reliability(worker.reliability())); // docs/replication.md
        }
        return node;
    }

    /** A worker's pending attempts as of now. */
    public List<AttemptRecord> activeAttempts(String worker) {
        return state.attempts().activeOfWorker(ns, worker).stream()
                .filter(a -> attemptStatus(a) == AttemptStatus.PENDING)
                .toList();
    }

    private static ArrayNode attemptIds(List<AttemptRecord> attempts) {
        ArrayNode ids = Json.MAPPER.createArrayNode();
        attempts.forEach(a -> ids.add(a.id()));
        return ids;
    }

    public static JsonNode orEmpty(JsonNode data) {
        return data == null ? Json.object() : data;
    }

    /** A unit's status and active attempt as of now. */
    public record UnitNow(UnitStatus status, AttemptRecord active) {}
}
