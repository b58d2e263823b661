package io.coordinate.engine.state.db;

import io.coordinate.engine.state.StateListener;
import io.coordinate.engine.state.model.Replica;
import io.coordinate.engine.state.model.ReplicationState;
import io.coordinate.engine.state.model.ValidateState;
import io.coordinate.engine.state.model.WorkUnitRecord;
import java.util.Objects;

/** What a unit's write did, found from the records before and after it, told to the listener. */
final class UnitChangeEvents {

  private UnitChangeEvents() {}

  static void tell(StateListener listener, String ns, WorkUnitRecord before, WorkUnitRecord after) {
    unitEvent(listener, ns, before, after);
    if (before != null && after != null && after.replication() != null) {
      replicaEvents(listener, ns, before.replication(), after);
    }
  }

  private static void unitEvent(StateListener listener, String ns, WorkUnitRecord before, WorkUnitRecord after) {
    if (before == null) {
      listener.unitAdded(ns, after);
    } else if (after == null) {
      listener.unitDeleted(ns, before);
    } else if (before.status() != after.status()) {
      listener.unitStatusChanged(ns, before.status(), after);
    } else if (!Objects.equals(before.family(), after.family())
        && before.toBuilder().family(after.family()).build().equals(after)) {
      return;
    } else if (!Objects.equals(before.replication(), after.replication())
        && before.toBuilder().replication(after.replication()).build().equals(after)) {
      return;
    } else if (Objects.equals(before.activeAttempt(), after.activeAttempt())
        && before.attemptCount() == after.attemptCount()) {
      listener.unitUpdated(ns, after);
    }
  }

  private static void replicaEvents(StateListener listener, String ns, ReplicationState before, WorkUnitRecord unit) {
    ReplicationState after = unit.replication();
    boolean sameRound = before != null && before.round() == after.round();
    for (Replica replica : after.replicas()) {
      Replica old = sameRound ? before.replica(replica.seq()) : null;
      if (old != null && (old.outcome() != replica.outcome() || old.validateState() != replica.validateState())) {
        boolean validated = old.validateState() != replica.validateState()
            && (replica.validateState() == ValidateState.VALID || replica.validateState() == ValidateState.INVALID);
        listener.replicaUpdated(ns, unit, replica, validated);
      }
    }
    if (after.assimilatedAt() != null && (!sameRound || before.assimilatedAt() == null)) {
      listener.unitAssimilated(ns, unit);
    }
  }
}
