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
                changes.add(new ReplicaChange(replica, validated(old, replica)));
            }
        }
        return changes;
    }

    /** Whether the validator judged the replica (valid or invalid) between its two states. */
    static boolean validated(Replica before, Replica after) {
        return before.validateState() != after.validateState()
                && (after.validateState() == ValidateState.VALID || after.validateState() == ValidateState.INVALID);
    }
}
