package io.coordinate.engine.replication;

import io.coordinate.engine.state.MutableUnitState.ReplicaChange;
import io.coordinate.engine.state.model.Replica;
import io.coordinate.engine.state.model.ReplicationState;
import io.coordinate.engine.state.model.ValidateState;
import java.util.ArrayList;
import java.util.List;

/** The replicas of a round whose outcome or validate state a report, a deadline or a judgement moved. */
final class ReplicaChanges {

    private ReplicaChanges() {}

    /** Those of {@code after}'s replicas that {@code before}, the same round, showed otherwise; a new round has none. */
    static List<ReplicaChange> between(ReplicationState before, ReplicationState after) {
        if (before == null || before.round() != after.round()) {
            return List.of();
        }
        List<ReplicaChange> changes = new ArrayList<>();
        for (Replica replica : after.replicas()) {
            Replica old = before.replica(replica.seq());
            if (old != null && (old.outcome() != replica.outcome() || old.validateState() != replica.validateState())) {
                boolean validated = old.validateState() != replica.validateState()
                        && (replica.validateState() == ValidateState.VALID
                                || replica.validateState() == ValidateState.INVALID);
                changes.add(new ReplicaChange(replica, validated));
            }
        }
        return changes;
    }
}
