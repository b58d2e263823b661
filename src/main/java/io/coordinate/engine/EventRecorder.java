package io.coordinate.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.AttemptRecord;
import io.coordinate.engine.replication.Assimilation;
import io.coordinate.engine.state.AttemptStatus;
import io.coordinate.engine.state.Replica;
import io.coordinate.engine.state.ReplicationState;
import io.coordinate.engine.state.StateListener;
import io.coordinate.engine.state.UnitRef;
import io.coordinate.engine.state.WorkSpecRecord;
import io.coordinate.engine.state.WorkUnitRecord;
import io.coordinate.engine.state.WorkerRecord;
import io.coordinate.engine.view.Numbers;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;
import java.util.Objects;

/** Turns every state change into its event (PROTOCOL "Events"): one event per change, in order. */
final class EventRecorder implements StateListener {

  private final Output output;

  EventRecorder(Output output) {
    this.output = output;
  }

  @Override
  public void specChanged(String ns, WorkSpecRecord before, WorkSpecRecord after) {
    if (after == null) {
      output.event(ns, "work_spec_deleted").string("work_spec_name", before.name());
    } else {
      output.event(ns, "work_spec_set").string("work_spec_name", after.name()).bool("created", before == null);
    }
  }

  @Override
  public void unitChanged(String ns, WorkUnitRecord before, WorkUnitRecord after) {
    unitEvent(ns, before, after);
    if (before != null && after != null && after.replication() != null) {
      replicaEvents(ns, before.replication(), after);
    }
  }

  private void unitEvent(String ns, WorkUnitRecord before, WorkUnitRecord after) {
    EventBatch event;
    if (before == null) {
      event = output.event(ns, "unit_added");
    } else if (after == null) {
      event = output.event(ns, "unit_deleted");
    } else if (before.status() != after.status()) {
      event = output.event(ns, "unit_status_changed");
      event.symbol("previous_status", before.status().wireName());
    } else if (!Objects.equals(before.family(), after.family()) && before.withFamily(after.family()).equals(after)) {
      return; // only its place in a job tree moved (released, closed, a link dropped): no status changed
    } else if (!Objects.equals(before.replication(), after.replication())
        && before.withReplication(after.replication()).equals(after)) {
      return; // only its round of replicas changed: replicaEvents says what
    } else if (Objects.equals(before.activeAttempt(), after.activeAttempt())
        && before.attemptCount() == after.attemptCount()) {
      event = output.event(ns, "unit_updated"); // data, priority or not-before changed
    } else {
      return; // only the attempt bookkeeping changed: the attempt's own event says it
    }
    WorkUnitRecord unit = after != null ? after : before;
    event.string("work_spec_name", unit.spec()).string("work_unit_name", unit.name());
    if (after != null) {
      event.symbol("status", after.status().wireName());
      event.node("priority", Numbers.node(after.priority()));
      if (after.notBefore() != null) {
        event.string("not_before", Times.format(after.notBefore()));
      }
      if (before == null && after.family() != null) {
        putLink(event, "parent", after.family().parent());
        putLink(event, "predecessor", after.family().predecessor());
      }
    }
  }

  /**
   * A round of replicas (SEMANTICS §6): {@code replica_updated} for each replica whose outcome or validate state
   * changed, then {@code unit_assimilated} when the round's record went to {@code coordinate.results}.
   */
  private void replicaEvents(String ns, ReplicationState before, WorkUnitRecord unit) {
    ReplicationState after = unit.replication();
    boolean sameRound = before != null && before.round() == after.round();
    for (Replica replica : after.replicas()) {
      Replica old = sameRound ? before.replica(replica.seq()) : null;
      if (old != null && (old.outcome() != replica.outcome() || old.validateState() != replica.validateState())) {
        output.event(ns, "replica_updated").string("work_spec_name", unit.spec())
            .string("work_unit_name", unit.name()).fields(Assimilation.replica(replica));
      }
    }
    if (after.assimilatedAt() != null && (!sameRound || before.assimilatedAt() == null)) {
      EventBatch event = output.event(ns, "unit_assimilated");
      event.string("work_spec_name", unit.spec()).string("work_unit_name", unit.name()).number("round", after.round());
      if (after.canonical() != null) {
        event.string("canonical_attempt_id", Long.toString(after.canonical()));
      }
      event.number("error_mask", after.errorMask());
    }
  }

  /** A new unit's links, so that a consumer of the events can rebuild the job trees too. */
  private static void putLink(EventBatch event, String field, UnitRef link) {
    if (link != null) {
      ObjectNode ref = Json.object();
      ref.put("work_spec_name", link.spec()).put("work_unit_name", link.name());
      event.node(field, ref);
    }
  }

  @Override
  public void attemptChanged(String ns, AttemptRecord before, AttemptRecord after) {
    String type;
    if (before == null) {
      type = "attempt_started";
    } else if (before.status() == after.status()) {
      type = "attempt_renewed";
    } else {
      type = switch (after.status()) {
        case FINISHED -> "attempt_finished";
        case FAILED -> "attempt_failed";
        case RETRYABLE -> "attempt_retried";
        case EXPIRED -> "attempt_expired";
        case PENDING -> "attempt_started";
      };
    }
    EventBatch event = output.event(ns, type);
    event.string("work_spec_name", after.spec()).string("work_unit_name", after.unit());
    event.string("attempt_id", after.id()).string("worker", after.worker()).symbol("status", after.status().wireName());
    if (after.status() == AttemptStatus.PENDING) {
      event.string("expiration_time", Times.format(after.expirationTime()));
    }
  }

  @Override
  public void workerChanged(String ns, WorkerRecord before, WorkerRecord after) {
    EventBatch event = output.event(ns, "worker_updated");
    event.string("worker", after.name()).bool("active", after.active());
    if (after.parent() != null) {
      event.string("parent", after.parent());
    }
  }

  @Override
  public void namespaceDestroyed(String ns) {
    output.event(ns, "namespace_destroyed");
  }
}
