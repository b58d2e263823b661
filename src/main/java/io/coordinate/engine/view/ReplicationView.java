package io.coordinate.engine.view;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.replication.Assimilation;
import io.coordinate.engine.replication.Quorum;
import io.coordinate.engine.replication.Replication;
import io.coordinate.engine.state.StateReader;
import io.coordinate.engine.state.model.ReplicationConfig;
import io.coordinate.engine.state.model.ReplicationState;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.state.model.WorkerReliability;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;

/**
 * Views of redundant execution (docs/replication.md), exact at {@code now} as the other views are: a round with
 * replicas past their deadline shows as the next time step will leave it (a replica {@code no_reply}, or
 * {@code didnt_need} when an earlier deadline decided the round; the unit needing another replica, or failed),
 * through the same {@link Replication#atTime} that the time step stores.
 */
final class ReplicationView {

    private final StateReader state;
    private final String ns;
    private final long now;

    ReplicationView(StateReader state, String ns, long now) {
        this.state = state;
        this.ns = ns;
        this.now = now;
    }

    /** The unit's round as of now, or null when it runs no replicas (it may be a unit of a replicated spec). */
    ReplicationState roundNow(WorkUnitRecord unit) {
        ReplicationState round = unit.replication();
        return round == null || Quorum.overdue(round, now).isEmpty()
                ? round
                : passNow(unit).round();
    }

    /**
     * The status now of a unit with a round under way, whose stored status may be out of date because one of its
     * replicas is past its deadline; null when the stored one holds (the caller's ordinary rules apply).
     */
    UnitStatus statusNow(WorkUnitRecord unit) {
        ReplicationState round = unit.replication();
        UnitStatus stored = unit.status();
        if (round == null
                || Quorum.overdue(round, now).isEmpty()
                || (stored != UnitStatus.PENDING && stored != UnitStatus.AVAILABLE && stored != UnitStatus.DELAYED)) {
            return null;
        }
        Quorum.Pass pass = passNow(unit);
        if (pass.decided()) {
            return pass.round().canonical() != null ? UnitStatus.FINISHED : UnitStatus.FAILED;
        }
        if (pass.needed() == 0) {
            return UnitStatus.PENDING;
        }
        if (unit.family() != null && unit.family().blocks()) {
            return UnitStatus.BLOCKED;
        }
        return unit.notBefore() != null && now < unit.notBefore() ? UnitStatus.DELAYED : UnitStatus.AVAILABLE;
    }

    /** The unit's round now, as the time step will leave it: the engine's own function of it. */
    private Quorum.Pass passNow(WorkUnitRecord unit) {
        return Replication.atTime(state.specs().get(ns, unit.spec()), unit, now);
    }

    /**
     * {@code {"round", "min_quorum", "target_nresults", "needed", "error_mask", "canonical_attempt_id",
     * "assimilated_at", "replicas": [...]}} for a unit that runs as replicas or belongs to a replicated spec; null
     * otherwise.
     */
    ObjectNode of(WorkUnitRecord unit) {
        WorkSpecRecord spec = state.specs().get(ns, unit.spec());
        if (unit.replication() == null && (spec == null || spec.meta().replication() == null)) {
            return null;
        }
        ReplicationConfig config = Replication.config(spec);
        ReplicationState round = roundNow(unit);
        if (round == null) {
            round = ReplicationState.first();
        }
        ObjectNode node = Json.object();
        node.put("round", round.round());
        node.put("min_quorum", config.minQuorum());
        node.put("target_nresults", Quorum.target(config, round));
        boolean closed = unit.status().isFinal() || unit.status() == UnitStatus.WAITING;
        node.put("needed", closed ? 0 : Quorum.needed(config, round));
        node.put("error_mask", round.errorMask());
        if (round.canonical() == null) {
            node.putNull("canonical_attempt_id");
        } else {
            node.put("canonical_attempt_id", Long.toString(round.canonical()));
        }
        if (round.assimilatedAt() == null) {
            node.putNull("assimilated_at");
        } else {
            node.put("assimilated_at", Times.format(round.assimilatedAt()));
        }
        node.set("replicas", Assimilation.replicas(round));
        return node;
    }

    static ObjectNode config(ReplicationConfig config) {
        ObjectNode node = Json.object();
        node.put("min_quorum", config.minQuorum());
        node.put("target_nresults", config.targetNresults());
        node.put("max_error_results", config.maxErrorResults());
        node.put("max_total_results", config.maxTotalResults());
        node.put("max_success_results", config.maxSuccessResults());
        if (config.delayBound() == null) {
            node.putNull("delay_bound");
        } else {
            node.set("delay_bound", Numbers.node(config.delayBound()));
        }
        node.put("validator", config.validator());
        return node;
    }

    static ObjectNode reliability(WorkerReliability counters) {
        ObjectNode node = Json.object();
        node.put("consecutive_valid", counters.consecutiveValid());
        node.put("valid", counters.valid());
        node.put("invalid", counters.invalid());
        node.put("errors", counters.errors());
        node.put("timeouts", counters.timeouts());
        return node;
    }
}
