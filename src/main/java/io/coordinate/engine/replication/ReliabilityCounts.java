package io.coordinate.engine.replication;

import static io.coordinate.engine.state.model.ReplicaOutcome.CLIENT_ERROR;
import static io.coordinate.engine.state.model.ReplicaOutcome.NO_REPLY;

import io.coordinate.engine.state.MutableWorkerState;
import io.coordinate.engine.state.model.Replica;
import io.coordinate.engine.state.model.ReplicationState;
import io.coordinate.engine.state.model.ValidateState;
import io.coordinate.engine.state.model.WorkerRecord;
import io.coordinate.engine.state.model.WorkerReliability;
import java.util.LinkedHashMap;
import java.util.Map;

/** The workers' reliability counters (errors, timeouts, validations), moved by what their replicas' outcomes became. */
final class ReliabilityCounts {

    private final MutableWorkerState workers;
    private final String ns;

    ReliabilityCounts(MutableWorkerState workers, String ns) {
        this.workers = workers;
        this.ns = ns;
    }

    /** The workers' reliability counters for what changed between two states of a round. */
    void count(ReplicationState before, ReplicationState after) {
        Map<String, WorkerReliability> counters = new LinkedHashMap<>();
        for (Replica now : after.replicas()) {
            Replica old = before == null ? null : before.replica(now.seq());
            if (old == null) {
                continue;
            }
            WorkerReliability counted = counters.get(now.worker());
            if (counted == null) {
                WorkerRecord worker = workers.get(ns, now.worker());
                if (worker == null) {
                    continue;
                }
                counted = worker.reliability() == null ? WorkerReliability.NONE : worker.reliability();
            }
            if (old.outcome() != CLIENT_ERROR && now.outcome() == CLIENT_ERROR) {
                counted = counted.error();
            }
            if (old.outcome() == null && now.outcome() == NO_REPLY) {
                counted = counted.timeout();
            }
            if (ReplicaChanges.validated(old, now)) {
                counted = counted.validated(now.validateState() == ValidateState.VALID);
            }
            counters.put(now.worker(), counted);
        }
        counters.forEach((name, reliability) -> {
            WorkerRecord worker = workers.get(ns, name);
            WorkerReliability current = worker.reliability() == null ? WorkerReliability.NONE : worker.reliability();
            if (!reliability.equals(current)) {
                workers.write(ns, worker, worker.withReliability(reliability));
            }
        });
    }
}
