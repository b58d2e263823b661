package io.coordinate.engine;

import static io.coordinate.protocol.FieldNames.ATTEMPT_ID;
import static io.coordinate.protocol.FieldNames.EXPIRATION_TIME;
import static io.coordinate.protocol.FieldNames.WORKER;
import static io.coordinate.protocol.FieldNames.WORK_SPEC_NAME;
import static io.coordinate.protocol.FieldNames.WORK_UNIT_NAME;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.replication.Assimilation;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.Replica;
import io.coordinate.engine.state.model.ReplicationState;
import io.coordinate.engine.state.StateListener;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.ValidateState;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.state.model.WorkerRecord;
import io.coordinate.engine.view.Numbers;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/** Turns every state change into its event (docs/reference.md#events): one event per change, in order. */
final class EventRecorder implements StateListener {

  // event types
  private static final SerializableString ATTEMPT_EXPIRED = Json.encoded("attempt_expired");
  private static final SerializableString ATTEMPT_FAILED = Json.encoded("attempt_failed");
  private static final SerializableString ATTEMPT_FINISHED = Json.encoded("attempt_finished");
  private static final SerializableString ATTEMPT_RENEWED = Json.encoded("attempt_renewed");
  private static final SerializableString ATTEMPT_RETRIED = Json.encoded("attempt_retried");
  private static final SerializableString ATTEMPT_STARTED = Json.encoded("attempt_started");
  private static final SerializableString NAMESPACE_DESTROYED = Json.encoded("namespace_destroyed");
  private static final SerializableString REPLICA_UPDATED = Json.encoded("replica_updated");
  private static final SerializableString UNIT_ADDED = Json.encoded("unit_added");
  private static final SerializableString UNIT_ASSIMILATED = Json.encoded("unit_assimilated");
  private static final SerializableString UNIT_DELETED = Json.encoded("unit_deleted");
  private static final SerializableString UNIT_STATUS_CHANGED = Json.encoded("unit_status_changed");
  private static final SerializableString UNIT_UPDATED = Json.encoded("unit_updated");
  private static final SerializableString WORK_SPEC_DELETED = Json.encoded("work_spec_deleted");
  private static final SerializableString WORK_SPEC_SET = Json.encoded("work_spec_set");
  private static final SerializableString WORKER_UPDATED = Json.encoded("worker_updated");
  // field names
  private static final SerializableString ACTIVE = Json.encoded("active");
  private static final SerializableString CANONICAL_ATTEMPT_ID = Json.encoded("canonical_attempt_id");
  private static final SerializableString CREATED = Json.encoded("created");
  private static final SerializableString ERROR_MASK = Json.encoded("error_mask");
  private static final SerializableString NOT_BEFORE = Json.encoded("not_before");
  private static final SerializableString PARENT = Json.encoded("parent");
  private static final SerializableString PREDECESSOR = Json.encoded("predecessor");
  private static final SerializableString PREVIOUS_STATUS = Json.encoded("previous_status");
  private static final SerializableString PRIORITY = Json.encoded("priority");
  private static final SerializableString ROUND = Json.encoded("round");
  private static final SerializableString STATUS = Json.encoded("status");
  // statuses
  private static final Map<UnitStatus, SerializableString> UNIT_STATUSES =
      encoded(UnitStatus.class, UnitStatus::wireName);
  private static final Map<AttemptStatus, SerializableString> ATTEMPT_STATUSES =
      encoded(AttemptStatus.class, AttemptStatus::wireName);

  private final Output output;

  EventRecorder(Output output) {
    this.output = output;
  }

  @Override
  public void specChanged(String ns, WorkSpecRecord before, WorkSpecRecord after) {
    if (after == null) {
      output.event(ns, WORK_SPEC_DELETED).repeated(WORK_SPEC_NAME, before.name());
    } else {
      output.event(ns, WORK_SPEC_SET).repeated(WORK_SPEC_NAME, after.name()).bool(CREATED, before == null);
    }
  }

  @Override
  public void unitChanged(String ns, WorkUnitRecord before, WorkUnitRecord after) {
    countUnit(ns, before, after);
    unitEvent(ns, before, after);
    if (before != null && after != null && after.replication() != null) {
      replicaEvents(ns, before.replication(), after);
    }
  }

  private void countUnit(String ns, WorkUnitRecord before, WorkUnitRecord after) {
    if (after == null) {
      return;
    }
    if (before == null) {
      output.count(ns, after.spec(), ChangeCounts.Kind.UNIT_ADDED);
    } else if (before.status() != after.status()) {
      if (after.status() == UnitStatus.FINISHED) {
        output.count(ns, after.spec(), ChangeCounts.Kind.UNIT_FINISHED);
      } else if (after.status() == UnitStatus.FAILED) {
        output.count(ns, after.spec(), ChangeCounts.Kind.UNIT_FAILED);
      }
    }
  }

  private void unitEvent(String ns, WorkUnitRecord before, WorkUnitRecord after) {
    EventBatch event;
    if (before == null) {
      event = output.event(ns, UNIT_ADDED);
    } else if (after == null) {
      event = output.event(ns, UNIT_DELETED);
    } else if (before.status() != after.status()) {
      event = output.event(ns, UNIT_STATUS_CHANGED);
      event.symbol(PREVIOUS_STATUS, UNIT_STATUSES.get(before.status()));
    } else if (!Objects.equals(before.family(), after.family())
        && before.toBuilder().family(after.family()).build().equals(after)) {
      return; // only its place in a job tree moved (released, closed, a link dropped): no status changed
    } else if (!Objects.equals(before.replication(), after.replication())
        && before.toBuilder().replication(after.replication()).build().equals(after)) {
      return; // only its round of replicas changed: replicaEvents says what
    } else if (Objects.equals(before.activeAttempt(), after.activeAttempt())
        && before.attemptCount() == after.attemptCount()) {
      event = output.event(ns, UNIT_UPDATED); // data, priority or not-before changed
    } else {
      return; // only the attempt bookkeeping changed: the attempt's own event says it
    }
    WorkUnitRecord unit = after != null ? after : before;
    event.repeated(WORK_SPEC_NAME, unit.spec()).string(WORK_UNIT_NAME, unit.name());
    if (after != null) {
      event.symbol(STATUS, UNIT_STATUSES.get(after.status()));
      event.node(PRIORITY, Numbers.node(after.priority()));
      if (after.notBefore() != null) {
        event.string(NOT_BEFORE, Times.format(after.notBefore()));
      }
      if (before == null && after.family() != null) {
        putLink(event, PARENT, after.family().parent());
        putLink(event, PREDECESSOR, after.family().predecessor());
      }
    }
  }

  /**
   * A round of replicas (docs/replication.md): {@code replica_updated} for each replica whose outcome or validate state
   * changed, then {@code unit_assimilated} when the round's record went to {@code coordinate.results}.
   */
  private void replicaEvents(String ns, ReplicationState before, WorkUnitRecord unit) {
    ReplicationState after = unit.replication();
    boolean sameRound = before != null && before.round() == after.round();
    for (Replica replica : after.replicas()) {
      Replica old = sameRound ? before.replica(replica.seq()) : null;
      if (old != null && (old.outcome() != replica.outcome() || old.validateState() != replica.validateState())) {
        if (old.validateState() != replica.validateState() && (replica.validateState() == ValidateState.VALID
            || replica.validateState() == ValidateState.INVALID)) {
          output.count(ns, unit.spec(), ChangeCounts.Kind.REPLICA_VALIDATED);
        }
        output.event(ns, REPLICA_UPDATED).repeated(WORK_SPEC_NAME, unit.spec())
            .string(WORK_UNIT_NAME, unit.name()).fields(Assimilation.replica(replica));
      }
    }
    if (after.assimilatedAt() != null && (!sameRound || before.assimilatedAt() == null)) {
      output.count(ns, unit.spec(), ChangeCounts.Kind.UNIT_ASSIMILATED);
      EventBatch event = output.event(ns, UNIT_ASSIMILATED);
      event.repeated(WORK_SPEC_NAME, unit.spec()).string(WORK_UNIT_NAME, unit.name()).number(ROUND, after.round());
      if (after.canonical() != null) {
        event.string(CANONICAL_ATTEMPT_ID, Long.toString(after.canonical()));
      }
      event.number(ERROR_MASK, after.errorMask());
    }
  }

  /** A new unit's links, so that a consumer of the events can rebuild the job trees too. */
  private static void putLink(EventBatch event, SerializableString field, UnitRef link) {
    if (link != null) {
      ObjectNode ref = Json.object();
      ref.put("work_spec_name", link.spec()).put("work_unit_name", link.name());
      event.node(field, ref);
    }
  }

  @Override
  public void attemptChanged(String ns, AttemptRecord before, AttemptRecord after) {
    SerializableString type;
    if (before == null) {
      type = ATTEMPT_STARTED;
      output.count(ns, after.spec(), ChangeCounts.Kind.ATTEMPT_STARTED);
    } else if (before.status() == after.status()) {
      type = ATTEMPT_RENEWED;
    } else {
      if (after.status() == AttemptStatus.RETRYABLE) {
        output.count(ns, after.spec(), ChangeCounts.Kind.UNIT_RETRIED);
      } else if (after.status() == AttemptStatus.EXPIRED) {
        output.count(ns, after.spec(), ChangeCounts.Kind.ATTEMPT_EXPIRED);
      }
      type = switch (after.status()) {
        case FINISHED -> ATTEMPT_FINISHED;
        case FAILED -> ATTEMPT_FAILED;
        case RETRYABLE -> ATTEMPT_RETRIED;
        case EXPIRED -> ATTEMPT_EXPIRED;
        case PENDING -> ATTEMPT_STARTED;
      };
    }
    EventBatch event = output.event(ns, type);
    event.repeated(WORK_SPEC_NAME, after.spec()).string(WORK_UNIT_NAME, after.unit());
    event.string(ATTEMPT_ID, after.id()).repeated(WORKER, after.worker())
        .symbol(STATUS, ATTEMPT_STATUSES.get(after.status()));
    if (after.status() == AttemptStatus.PENDING) {
      event.repeated(EXPIRATION_TIME, Times.format(after.expirationTime()));
    }
  }

  @Override
  public void workerChanged(String ns, WorkerRecord before, WorkerRecord after) {
    EventBatch event = output.event(ns, WORKER_UPDATED);
    event.string(WORKER, after.name()).bool(ACTIVE, after.active());
    if (after.parent() != null) {
      event.string(PARENT, after.parent());
    }
  }

  private static <E extends Enum<E>> Map<E, SerializableString> encoded(Class<E> type, Function<E, String> name) {
    Map<E, SerializableString> encoded = new EnumMap<>(type);
    for (E value : type.getEnumConstants()) {
      encoded.put(value, Json.encoded(name.apply(value)));
    }
    return encoded;
  }

  @Override
  public void namespaceDestroyed(String ns) {
    output.event(ns, NAMESPACE_DESTROYED);
  }
}
