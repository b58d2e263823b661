package io.coordinate.engine.replication;

import static io.coordinate.engine.state.model.AttemptStatus.PENDING;
import static io.coordinate.engine.state.model.ReplicaOutcome.CLIENT_ERROR;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.family.Family;
import io.coordinate.engine.state.MutableAttemptState;
import io.coordinate.engine.state.MutableUnitState;
import io.coordinate.engine.state.MutableWorkerState;
import io.coordinate.engine.state.SpecState;
import io.coordinate.engine.state.model.AttemptProgress;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.Replica;
import io.coordinate.engine.state.model.ReplicationConfig;
import io.coordinate.engine.state.model.ReplicationState;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.ValidateState;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.state.model.WorkerRecord;
import io.coordinate.protocol.Times;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Redundant execution (docs/replication.md) in the engine: hands out replicas, takes their reports, runs the
 * transitioner and validator ({@link Quorum}) after each, moves the unit, and assimilates a decided round exactly
 * once, in the command (or time step) that decides it: its record goes out with the state change that marks it
 * assimilated, so under exactly-once processing neither can happen without the other. One instance serves one
 * command or one time-step item of one namespace.
 *
 * <p>A unit runs as replicas when its spec is replicated, or while it has a round under way; its round lives in
 * its record ({@link ReplicationState}) and every replica is an attempt. A decided round has a canonical replica
 * (the unit's active attempt from then on: it finishes the unit, with its data, through the job-tree cascade of
 * {@link Family}) or an error mask (the unit fails). Replicas still running then are not needed any more
 * ({@code didnt_need}); they may still report and are validated against the canonical result.
 */
public final class Replication {

    /** How many units a request for replicas may pass over because its host already has one of them. */
    public static final int MAX_UNITS_SKIPPED = 1000;

    private final Family family;
    private final MutableUnitState units;
    private final MutableAttemptState attempts;
    private final MutableWorkerState workers;
    private final SpecState specs;
    private final String ns;
    private final long now;
    private final Consumer<ObjectNode> results;
    private final Map<String, WorkSpecRecord> specsRead = new HashMap<>();
    private final ReliabilityCounts reliability;

    /**
     * @param family the job trees of the same command, through which a decided round's unit moves
     * @param workers the replicas' hosts and reliability counters
     * @param results where assimilated records go ({@code coordinate.results})
     */
    public Replication(
            Family family,
            MutableUnitState units,
            MutableAttemptState attempts,
            MutableWorkerState workers,
            SpecState specs,
            Consumer<ObjectNode> results) {
        this.family = family;
        this.units = units;
        this.attempts = attempts;
        this.workers = workers;
        this.specs = specs;
        this.ns = family.namespace();
        this.now = family.now();
        this.results = results;
        this.reliability = new ReliabilityCounts(workers, ns);
    }

    /** Whether the attempt is a replica of its unit's current round. */
    public static boolean isReplica(WorkUnitRecord unit, AttemptRecord attempt) {
        return attempt.isReplica()
                && unit != null
                && unit.replication() != null
                && unit.replication().replica(attempt.seq()) != null;
    }

    /** Whether an available unit runs as replicas: it has a round under way (its spec may have changed since). */
    public static boolean roundUnderWay(WorkUnitRecord unit) {
        return unit.replication() != null
                && !unit.replication().replicas().isEmpty()
                && !unit.replication().decided()
                && !unit.status().isFinal();
    }

    /** Whether {@code host} may take a replica of the unit: it is available and the host has none of its round. */
    public static boolean canTake(WorkUnitRecord unit, String host) {
        return unit != null
                && unit.status() == UnitStatus.AVAILABLE
                && (unit.replication() == null || !unit.replication().hasHost(host));
    }

    /** A worker's host: its top-level ancestor by {@code parent}; a worker without a parent is its own host. */
    public String host(String worker) {
        Set<String> seen = new HashSet<>();
        String current = worker;
        seen.add(current);
        while (true) {
            WorkerRecord record = workers.get(ns, current);
            if (record == null || record.parent() == null || !seen.add(record.parent())) {
                return current;
            }
            current = record.parent();
        }
    }

    // --- handing out ---

    /**
     * Hands out a replica of an available unit to {@code worker} on {@code host}: its deadline is the spec's
     * {@code delay_bound}, or the request's lifetime. The unit stays available while it needs more replicas, and is
     * pending once every needed one is out. Returns null, and fails the unit with bit 1, when the spec's
     * {@code max_retries} (lowered since the round began) allows no more replicas.
     */
    public AttemptRecord start(WorkUnitRecord unit, String worker, String host, long lifetimeMillis) {
        ReplicationConfig config = config(unit.spec());
        ReplicationState round = unit.replication() == null ? ReplicationState.first() : unit.replication();
        long maxRetries = maxRetries(unit.spec());
        if (maxRetries > 0 && round.replicas().size() >= maxRetries) {
            decide(unit, unit, round, Quorum.fail(round, ReplicationState.COULDNT_SEND));
            return null;
        }
        long seq = attempts.nextSeq(ns);
        long deadline = config.delayBound() != null
                ? Times.plus(now, config.delayBound())
                : Times.plusMillis(now, lifetimeMillis);
        AttemptRecord attempt = new AttemptRecord(
                seq, unit.spec(), unit.name(), worker, PENDING, unit.data(), now, deadline, null, true, null);
        ReplicationState next =
                round.withReplica(new Replica(seq, worker, host, deadline, null, ValidateState.INIT, null));
        WorkUnitRecord after = unit.toBuilder()
                .replication(next)
                .attemptCount(unit.attemptCount() + 1)
                .build();
        attempts.start(
                ns,
                unit,
                after.toBuilder()
                        .status(Quorum.needed(config, next) > 0 ? unit.status() : UnitStatus.PENDING)
                        .build(),
                attempt);
        return attempt;
    }

    // --- reports ---

    /** A replica finished: success, with the digest of its {@code result}; validated now or, if decided, late. */
    public void finished(AttemptRecord attempt, JsonNode data) {
        attempts.end(ns, attempt, attempt.withStatus(AttemptStatus.FINISHED, data, now));
        WorkUnitRecord unit = units.get(ns, attempt.spec(), attempt.unit());
        ReplicationState before = unit.replication();
        String digest = ResultDigest.of(data);
        ReplicationState round = closed(unit)
                ? Quorum.lateSuccess(before, attempt.seq(), digest)
                : before.withReplica(attempt.seq(), r -> r.withSuccess(digest));
        apply(unit, unit, pass(unit, round));
    }

    /** A replica failed: {@code client_error}. */
    public void failed(AttemptRecord attempt, JsonNode data) {
        attempts.end(ns, attempt, attempt.withStatus(AttemptStatus.FAILED, data, now));
        WorkUnitRecord unit = units.get(ns, attempt.spec(), attempt.unit());
        apply(
                unit,
                unit,
                pass(
                        unit,
                        unit.replication()
                                .withReplica(
                                        attempt.seq(),
                                        r -> r.toBuilder().outcome(CLIENT_ERROR).build())));
    }

    /**
     * A replica was expired or retried by a command: {@code no_reply}, unless it was not needed any more. A retry's
     * {@code notBefore} holds back the unit's next replica.
     */
    public void released(AttemptRecord attempt, AttemptStatus status, JsonNode data, Long notBefore) {
        attempts.end(ns, attempt, attempt.withStatus(status, data, now));
        WorkUnitRecord unit = units.get(ns, attempt.spec(), attempt.unit());
        WorkUnitRecord changed = notBefore != null && !closed(unit)
                ? unit.toBuilder().notBefore(notBefore).build()
                : unit;
        apply(
                unit,
                changed,
                Quorum.noReply(
                        config(unit.spec()), maxRetries(unit.spec()), unit.replication(), attempt.seq(), closed(unit)));
    }

    /**
     * The time step met {@code due}, a replica of the unit's round past its deadline: it applies every deadline of the
     * round that passed, in order, as {@link #atTime} shows them to reads, and expires their attempts (and
     * {@code due}'s, whose replica may have been left {@code didnt_need} by an earlier time step).
     */
    public void deadlinesPassed(WorkUnitRecord unit, AttemptRecord due) {
        List<Replica> overdue = Quorum.overdue(unit.replication(), now);
        Quorum.Pass pass = atTime(spec(unit.spec()), unit, now);
        if (overdue.stream().noneMatch(r -> r.seq() == due.seq())) {
            attempts.end(ns, due, due.withStatus(AttemptStatus.EXPIRED, due.data(), now));
        }
        for (Replica replica : overdue) {
            AttemptRecord attempt = replica.seq() == due.seq() ? due : attempts.get(ns, replica.seq());
            attempts.end(ns, attempt, attempt.withStatus(AttemptStatus.EXPIRED, attempt.data(), now));
        }
        apply(unit, unit, pass);
    }

    /**
     * The unit's round at {@code now} as the time step will leave it, and the replicas it then needs: its deadlines
     * that passed applied by {@link Quorum#afterDeadlines}. Reads show this; the time step stores it.
     *
     * @param spec the unit's spec (null if it is gone)
     */
    public static Quorum.Pass atTime(WorkSpecRecord spec, WorkUnitRecord unit, long now) {
        return Quorum.afterDeadlines(config(spec), maxRetries(spec), unit.replication(), closed(unit), now);
    }

    /**
     * Renews a running replica (with its worker's {@code progress}, if any): its deadline becomes now +
     * {@code extendMillis}, but never later than its start + {@code delay_bound} when the spec sets one.
     */
    public AttemptRecord renewed(AttemptRecord attempt, long extendMillis, JsonNode data, AttemptProgress progress) {
        ReplicationConfig config = config(attempt.spec());
        long expiration = Times.plusMillis(now, extendMillis);
        if (config.delayBound() != null) {
            expiration = Math.min(expiration, Times.plus(attempt.startTime(), config.delayBound()));
        }
        AttemptRecord renewed = attempt.withRenewal(expiration, data, progress);
        attempts.renew(ns, attempt, renewed);
        WorkUnitRecord unit = units.get(ns, attempt.spec(), attempt.unit());
        long deadline = expiration;
        units.changeRound(
                ns,
                unit,
                unit.toBuilder()
                        .replication(unit.replication()
                                .withReplica(
                                        attempt.seq(),
                                        r -> r.toBuilder().deadline(deadline).build()))
                        .build(),
                List.of());
        return renewed;
    }

    /**
     * {@code cancel_work_units}: a replicated unit not yet decided gets bit 16, fails and is assimilated. Returns
     * false for a unit that is not replicated or already decided.
     */
    public boolean cancel(WorkUnitRecord unit) {
        if (closed(unit)) {
            return false;
        }
        ReplicationState round = unit.replication();
        if (round == null) {
            WorkSpecRecord spec = spec(unit.spec());
            if (spec == null || spec.meta().replication() == null) {
                return false;
            }
            round = ReplicationState.first();
        }
        if (round.decided()) {
            return false;
        }
        decide(unit, unit, round, Quorum.fail(round, ReplicationState.CANCELLED));
        return true;
    }

    // --- the transitioner ---

    /** A pass over the changed round of the unit; for a closed unit, the round as it is (a late replica). */
    private Quorum.Pass pass(WorkUnitRecord stored, ReplicationState round) {
        return closed(stored)
                ? new Quorum.Pass(round, 0)
                : Quorum.evaluate(config(stored.spec()), maxRetries(stored.spec()), round);
    }

    /**
     * Writes a replica's change after its pass: for a closed unit, only the round (a late replica); otherwise the
     * round and the unit's move.
     *
     * @param stored the unit as stored
     * @param changed the unit with any change of its own fields (a retry's not-before)
     */
    private void apply(WorkUnitRecord stored, WorkUnitRecord changed, Quorum.Pass pass) {
        ReplicationState before = stored.replication();
        if (closed(stored)) {
            WorkUnitRecord after = changed.toBuilder().replication(pass.round()).build();
            if (!after.equals(stored)) {
                writeRound(stored, changed, after);
            }
            reliability.count(before, pass.round());
            return;
        }
        if (pass.decided()) {
            decide(stored, changed, before, pass.round());
            return;
        }
        WorkUnitRecord after = changed.toBuilder().replication(pass.round()).build();
        writeRound(
                stored,
                changed,
                after.toBuilder()
                        .status(pass.needed() > 0 ? family.restingStatus(after) : UnitStatus.PENDING)
                        .build());
        reliability.count(before, pass.round());
    }

    /**
     * A round was decided: first the round (its replicas judged), then the unit's move — finished with the canonical
     * replica as its active attempt (children released, heirs, chaining on its data: {@link Family}), or failed —
     * then the assimilation, then the workers' counters.
     */
    private void decide(
            WorkUnitRecord stored, WorkUnitRecord changed, ReplicationState before, ReplicationState round) {
        WorkUnitRecord judged = changed.toBuilder().replication(round).build();
        writeRound(stored, changed, judged);
        AttemptRecord canonical = null;
        if (round.canonical() != null) {
            canonical = attempts.get(ns, round.canonical());
            family.replicatedFinished(
                    judged.toBuilder().activeAttempt(round.canonical()).build(), canonical.data());
        } else {
            family.replicatedFailed(judged);
        }
        WorkUnitRecord decided = units.get(ns, stored.spec(), stored.name());
        if (decided != null
                && decided.replication() != null
                && decided.replication().assimilatedAt() == null) {
            WorkUnitRecord assimilated = decided.toBuilder()
                    .replication(
                            decided.replication().toBuilder().assimilatedAt(now).build())
                    .build();
            units.assimilate(ns, decided, assimilated);
            results.accept(Assimilation.record(ns, assimilated, canonical, now));
        }
        reliability.count(before, round);
    }

    /**
     * Writes the unit's changed round ({@code after}). A change of its own fields in {@code changed} (a retry's
     * not-before) that leaves its status is an update of its own, told first.
     */
    private void writeRound(WorkUnitRecord stored, WorkUnitRecord changed, WorkUnitRecord after) {
        WorkUnitRecord from = stored;
        if (!changed.equals(stored) && after.status() == stored.status()) {
            units.update(ns, stored, changed);
            from = changed;
        }
        units.changeRound(ns, from, after, ReplicaChanges.between(stored.replication(), after.replication()));
    }

    /** Decided, or finished, failed or cancelled by its family: a report only updates its replica. */
    public static boolean closed(WorkUnitRecord unit) {
        return unit.replication() != null && unit.replication().decided()
                || unit.status().isFinal()
                || unit.status() == UnitStatus.WAITING;
    }

    // --- the spec ---

    /** The spec's replication settings; a unit whose spec is no longer replicated finishes its round with a quorum of 1. */
    public ReplicationConfig config(String spec) {
        return config(spec(spec));
    }

    /** The replication settings of a spec (null: gone); {@link ReplicationConfig#SINGLE} when it is not replicated. */
    public static ReplicationConfig config(WorkSpecRecord spec) {
        return spec == null || spec.meta().replication() == null
                ? ReplicationConfig.SINGLE
                : spec.meta().replication();
    }

    private long maxRetries(String spec) {
        return maxRetries(spec(spec));
    }

    /** The spec's {@code max_retries}, which caps a round's replicas (0: no cap, or the spec is gone). */
    public static long maxRetries(WorkSpecRecord spec) {
        return spec == null ? 0 : spec.meta().maxRetries();
    }

    private WorkSpecRecord spec(String name) {
        return specsRead.computeIfAbsent(name, n -> specs.get(ns, n));
    }
}
