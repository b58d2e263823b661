package io.coordinate.engine;

import static io.coordinate.protocol.FieldNames.ATTEMPT_ID;
import static io.coordinate.protocol.FieldNames.EXPIRATION_TIME;
import static io.coordinate.protocol.FieldNames.WORKER;
import static io.coordinate.protocol.FieldNames.WORK_SPEC_NAME;
import static io.coordinate.protocol.FieldNames.WORK_UNIT_NAME;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.replication.Assimilation;
import io.coordinate.engine.state.StateListener;
import io.coordinate.engine.state.model.AttemptProgress;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.Replica;
import io.coordinate.engine.state.model.ReplicationState;
import io.coordinate.engine.state.model.RetryDecision;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.state.model.WorkerRecord;
import io.coordinate.engine.view.Numbers;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Function;

/** Turns every state change into its event (docs/reference.md#events): one event per change, in order. */
final class EventRecorder implements StateListener {

    // event types
    private static final SerializableString ATTEMPT_CANCELLED = Json.encoded("attempt_cancelled");
    private static final SerializableString ATTEMPT_EXPIRED = Json.encoded("attempt_expired");
    private static final SerializableString ATTEMPT_FAILED = Json.encoded("attempt_failed");
    private static final SerializableString ATTEMPT_FINISHED = Json.encoded("attempt_finished");
    private static final SerializableString ATTEMPT_PROGRESS = Json.encoded("attempt_progress");
    private static final SerializableString ATTEMPT_RENEWED = Json.encoded("attempt_renewed");
    private static final SerializableString ATTEMPT_RETRIED = Json.encoded("attempt_retried");
    private static final SerializableString ATTEMPT_STARTED = Json.encoded("attempt_started");
    private static final SerializableString NAMESPACE_DESTROYED = Json.encoded("namespace_destroyed");
    private static final SerializableString REPLICA_UPDATED = Json.encoded("replica_updated");
    private static final SerializableString UNIT_ADDED = Json.encoded("unit_added");
    private static final SerializableString UNIT_ASSIMILATED = Json.encoded("unit_assimilated");
    private static final SerializableString UNIT_RETRIES_EXHAUSTED = Json.encoded("unit_retries_exhausted");
    private static final SerializableString UNIT_DELETED = Json.encoded("unit_deleted");
    private static final SerializableString UNIT_STATUS_CHANGED = Json.encoded("unit_status_changed");
    private static final SerializableString UNIT_UPDATED = Json.encoded("unit_updated");
    private static final SerializableString WORK_SPEC_DELETED = Json.encoded("work_spec_deleted");
    private static final SerializableString WORK_SPEC_SET = Json.encoded("work_spec_set");
    private static final SerializableString WORKER_UPDATED = Json.encoded("worker_updated");
    // field names
    private static final SerializableString ACTIVE = Json.encoded("active");
    private static final SerializableString ATTEMPT_COUNT = Json.encoded("attempt_count");
    private static final SerializableString CANONICAL_ATTEMPT_ID = Json.encoded("canonical_attempt_id");
    private static final SerializableString CREATED = Json.encoded("created");
    private static final SerializableString ERROR_MASK = Json.encoded("error_mask");
    private static final SerializableString MAX_ATTEMPTS = Json.encoded("max_attempts");
    private static final SerializableString FRACTION = Json.encoded("fraction");
    private static final SerializableString MESSAGE = Json.encoded("message");
    private static final SerializableString NOT_BEFORE = Json.encoded("not_before");
    private static final SerializableString PARENT = Json.encoded("parent");
    private static final SerializableString PREDECESSOR = Json.encoded("predecessor");
    private static final SerializableString PREVIOUS_STATUS = Json.encoded("previous_status");
    private static final SerializableString PRIORITY = Json.encoded("priority");
    private static final SerializableString GROUP = Json.encoded("group");
    private static final SerializableString RETRY_AT = Json.encoded("retry_at");
    private static final SerializableString RETRYABLE = Json.encoded("retryable");
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
            output.event(ns, WORK_SPEC_SET)
                    .repeated(WORK_SPEC_NAME, after.name())
                    .bool(CREATED, before == null);
        }
    }

    @Override
    public void unitAdded(String ns, WorkUnitRecord unit) {
        output.count(ns, unit.spec(), ChangeCounts.Kind.UNIT_ADDED);
        EventBatch event = unitEvent(output.event(ns, UNIT_ADDED), unit);
        if (unit.family() != null) {
            putLink(event, PARENT, unit.family().parent());
            putLink(event, PREDECESSOR, unit.family().predecessor());
        }
    }

    @Override
    public void unitStatusChanged(String ns, UnitStatus previous, WorkUnitRecord unit) {
        if (unit.status() == UnitStatus.FINISHED) {
            output.count(ns, unit.spec(), ChangeCounts.Kind.UNIT_FINISHED);
        } else if (unit.status() == UnitStatus.FAILED) {
            output.count(ns, unit.spec(), ChangeCounts.Kind.UNIT_FAILED);
        }
        EventBatch event = output.event(ns, UNIT_STATUS_CHANGED);
        event.symbol(PREVIOUS_STATUS, UNIT_STATUSES.get(previous));
        unitEvent(event, unit);
    }

    @Override
    public void unitUpdated(String ns, WorkUnitRecord unit) {
        unitEvent(output.event(ns, UNIT_UPDATED), unit);
    }

    @Override
    public void unitDeleted(String ns, WorkUnitRecord unit) {
        output.event(ns, UNIT_DELETED).repeated(WORK_SPEC_NAME, unit.spec()).string(WORK_UNIT_NAME, unit.name());
    }

    /** The unit's fields that every unit event but {@code unit_deleted} carries. */
    private static EventBatch unitEvent(EventBatch event, WorkUnitRecord unit) {
        event.repeated(WORK_SPEC_NAME, unit.spec()).string(WORK_UNIT_NAME, unit.name());
        event.symbol(STATUS, UNIT_STATUSES.get(unit.status()));
        event.node(PRIORITY, Numbers.node(unit.priority()));
        if (unit.group() != null) {
            event.string(GROUP, unit.group());
        }
        if (unit.notBefore() != null) {
            event.string(NOT_BEFORE, Times.format(unit.notBefore()));
        }
        return event;
    }

    /** A replica of a round (docs/replication.md) whose outcome or validate state changed. */
    @Override
    public void replicaUpdated(String ns, WorkUnitRecord unit, Replica replica, boolean validated) {
        if (validated) {
            output.count(ns, unit.spec(), ChangeCounts.Kind.REPLICA_VALIDATED);
        }
        output.event(ns, REPLICA_UPDATED)
                .repeated(WORK_SPEC_NAME, unit.spec())
                .string(WORK_UNIT_NAME, unit.name())
                .fields(Assimilation.replica(replica));
    }

    /** A decided round whose record went to {@code coordinate.results}. */
    @Override
    public void unitAssimilated(String ns, WorkUnitRecord unit) {
        ReplicationState round = unit.replication();
        output.count(ns, unit.spec(), ChangeCounts.Kind.UNIT_ASSIMILATED);
        EventBatch event = output.event(ns, UNIT_ASSIMILATED);
        event.repeated(WORK_SPEC_NAME, unit.spec())
                .string(WORK_UNIT_NAME, unit.name())
                .number(ROUND, round.round());
        if (round.canonical() != null) {
            event.string(CANONICAL_ATTEMPT_ID, Long.toString(round.canonical()));
        }
        event.number(ERROR_MASK, round.errorMask());
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
    public void attemptStarted(String ns, AttemptRecord attempt) {
        output.count(ns, attempt.spec(), ChangeCounts.Kind.ATTEMPT_STARTED);
        attemptEvent(ns, ATTEMPT_STARTED, attempt);
    }

    @Override
    public void attemptEnded(String ns, AttemptRecord attempt) {
        if (attempt.status() == AttemptStatus.RETRYABLE) {
            output.count(ns, attempt.spec(), ChangeCounts.Kind.UNIT_RETRIED);
        } else if (attempt.status() == AttemptStatus.EXPIRED) {
            output.count(ns, attempt.spec(), ChangeCounts.Kind.ATTEMPT_EXPIRED);
        } else if (attempt.status() == AttemptStatus.FAILED) {
            output.count(ns, attempt.spec(), ChangeCounts.Kind.ATTEMPT_FAILED);
        }
        attemptEvent(
                ns,
                switch (attempt.status()) {
                    case FINISHED -> ATTEMPT_FINISHED;
                    case FAILED -> ATTEMPT_FAILED;
                    case RETRYABLE -> ATTEMPT_RETRIED;
                    case EXPIRED -> ATTEMPT_EXPIRED;
                    case CANCELLED -> ATTEMPT_CANCELLED;
                    case PENDING -> throw new IllegalArgumentException("a pending attempt has not ended");
                },
                attempt);
    }

    /**
     * A failure or an expiry under the spec's retry policy: a retryable failure is {@code attempt_failed} with the
     * status {@code retryable}; both events say how many attempts the unit had, of how many, and when it runs again.
     */
    @Override
    public void attemptEnded(String ns, AttemptRecord attempt, RetryDecision decision) {
        boolean expired = attempt.status() == AttemptStatus.EXPIRED;
        output.count(
                ns, attempt.spec(), expired ? ChangeCounts.Kind.ATTEMPT_EXPIRED : ChangeCounts.Kind.ATTEMPT_FAILED);
        if (!decision.exhausted()) {
            output.count(ns, attempt.spec(), ChangeCounts.Kind.RETRY_SCHEDULED);
        }
        EventBatch event = attemptEvent(ns, expired ? ATTEMPT_EXPIRED : ATTEMPT_FAILED, attempt);
        if (!expired) {
            event.bool(RETRYABLE, true);
        }
        event.number(ATTEMPT_COUNT, decision.attemptCount()).number(MAX_ATTEMPTS, decision.maxAttempts());
        if (!decision.exhausted()) {
            event.string(RETRY_AT, Times.format(decision.retryAt()));
        }
    }

    @Override
    public void retriesExhausted(String ns, AttemptRecord attempt, RetryDecision decision) {
        output.count(ns, attempt.spec(), ChangeCounts.Kind.RETRIES_EXHAUSTED);
        output.event(ns, UNIT_RETRIES_EXHAUSTED)
                .repeated(WORK_SPEC_NAME, attempt.spec())
                .string(WORK_UNIT_NAME, attempt.unit())
                .string(ATTEMPT_ID, attempt.id())
                .number(ATTEMPT_COUNT, decision.attemptCount())
                .number(MAX_ATTEMPTS, decision.maxAttempts());
    }

    @Override
    public void attemptRenewed(String ns, AttemptRecord attempt) {
        attemptEvent(ns, ATTEMPT_RENEWED, attempt);
    }

    @Override
    public void attemptProgressed(String ns, AttemptRecord attempt) {
        AttemptProgress progress = attempt.progress();
        EventBatch event = attemptEvent(ns, ATTEMPT_PROGRESS, attempt);
        event.node(FRACTION, progress.fraction() == null ? NullNode.getInstance() : Numbers.node(progress.fraction()));
        event.string(MESSAGE, progress.message());
    }

    private EventBatch attemptEvent(String ns, SerializableString type, AttemptRecord attempt) {
        EventBatch event = output.event(ns, type);
        event.repeated(WORK_SPEC_NAME, attempt.spec()).string(WORK_UNIT_NAME, attempt.unit());
        event.quotedNumber(ATTEMPT_ID, attempt.seq()) // its id()
                .repeated(WORKER, attempt.worker())
                .symbol(STATUS, ATTEMPT_STATUSES.get(attempt.status()));
        if (attempt.status() == AttemptStatus.PENDING) {
            event.repeated(EXPIRATION_TIME, Times.format(attempt.expirationTime()));
        }
        return event;
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
