package io.coordinate.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.family.Family;
import io.coordinate.engine.handlers.AttemptCommands;
import io.coordinate.engine.handlers.BatchCommands;
import io.coordinate.engine.handlers.CancelCommands;
import io.coordinate.engine.handlers.Chaining;
import io.coordinate.engine.handlers.CommandContext;
import io.coordinate.engine.handlers.CommandHandler;
import io.coordinate.engine.handlers.HandlerRegistry;
import io.coordinate.engine.handlers.NamespaceCommands;
import io.coordinate.engine.handlers.RequestAttemptsHandler;
import io.coordinate.engine.handlers.Retries;
import io.coordinate.engine.handlers.ScheduledUnits;
import io.coordinate.engine.handlers.WorkSpecCommands;
import io.coordinate.engine.handlers.WorkUnitCommands;
import io.coordinate.engine.handlers.WorkerCommands;
import io.coordinate.engine.replication.Replication;
import io.coordinate.engine.state.CoordinateState;
import io.coordinate.engine.state.StateReader;
import io.coordinate.engine.state.codec.AnswerKeys;
import io.coordinate.engine.state.codec.KeyFamily;
import io.coordinate.engine.state.codec.TimeIndexKeys;
import io.coordinate.engine.state.db.EngineState;
import io.coordinate.engine.state.model.Answer;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.view.StateViews;
import io.coordinate.protocol.Command;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.CommandType;
import io.coordinate.protocol.ErrorCode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.NamespaceNames;
import io.coordinate.protocol.RecordLimit;
import io.coordinate.protocol.Replies;
import io.coordinate.storage.KeyValueStore;
import io.coordinate.storage.WriteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * The deterministic core: a command and the time in; state changes, replies, assignments, events and
 * follow-up commands out. Knows nothing of Kafka. Each command runs against a {@link WriteBuffer}: it is
 * applied whole or, when rejected, not at all.
 */
public final class Engine {

    /** How many due expiries/releases one punctuation applies; the rest wait for the next one. */
    public static final int TIME_STEP_BATCH = 1000;

    /**
     * How long the answer of a command with a {@code request_id} is kept: a repeat of the id within this time gets the
     * first answer again and changes nothing (docs/reference.md, "Repeated commands").
     */
    public static final long ANSWER_WINDOW_MILLIS = 10 * 60 * 1000;

    /** A result larger than this (as JSON) is kept as its scalar fields only: the changelog record stays small. */
    static final int MAX_KEPT_RESULT_BYTES = 64 * 1024;

    private final EngineState engineState;
    private final RandomGenerator random;
    private final HandlerRegistry registry = new HandlerRegistry();

    public Engine(KeyValueStore store, RandomGenerator random) {
        this.engineState = new EngineState(store);
        this.random = random;
        WorkSpecCommands.register(registry);
        WorkUnitCommands.register(registry);
        RequestAttemptsHandler.register(registry);
        AttemptCommands.register(registry);
        WorkerCommands.register(registry);
        NamespaceCommands.register(registry);
        BatchCommands.register(registry);
        CancelCommands.register(registry);
    }

    /**
     * Applies one command at time {@code now} (epoch millis). Due expiries and releases are applied first, so
     * the command sees exact statuses. Never throws for a bad command: the result carries the rejection. Throws when
     * the store cannot take the command's writes (see below).
     */
    public EngineResult process(Command command, long now) {
        EngineResult timeStep = advanceTime(now, Integer.MAX_VALUE);
        Output output = new Output(now);
        EngineState.Transaction transaction = engineState.begin(now, new EventRecorder(output));
        CoordinateState state = transaction.state();
        CommandRejection rejection = null;
        OutRecord reply = null;
        String requester = requester(command);
        try {
            if (requester != null) {
                Answer first = state.answers()
                        .get(command.namespace(), requester, command.type().wireName(), command.requestId(), now);
                if (first != null) {
                    repeat(command, requester, first, state, output, now);
                    transaction.discard(); // read only: nothing to commit
                    return merge(timeStep, output.toResult(null));
                }
            }
            CommandHandler handler = registry.handler(command.type());
            if (handler == null) {
                throw new CommandRejection(
                        ErrorCode.UNKNOWN_COMMAND,
                        "no handler for " + command.type().wireName());
            }
            if (state.namespaces().ensure(command.namespace(), now)) {
                // checked when a namespace is made, not on every command: one made before the rule can still be
                // destroyed
                NamespaceNames.requireCreatable(command.namespace());
            }
            // the handler gets the modules it changes, never the whole state nor the transaction
            CommandContext ctx = new CommandContext(
                    command,
                    now,
                    state,
                    state.namespaces(),
                    state.specs(),
                    state.units(),
                    state.attempts(),
                    state.workers(),
                    output,
                    random);
            JsonNode result = handler.handle(ctx);
            if (requester != null) {
                Answer answer = ctx.answer() != null ? ctx.answer() : Answer.result(0, keptResult(result));
                state.answers()
                        .record(
                                command.namespace(),
                                requester,
                                command.type().wireName(),
                                command.requestId(),
                                answer.expiringAt(now + ANSWER_WINDOW_MILLIS));
            }
            if (command.replyTo() != null) {
                reply = new OutRecord(
                        command.replyTo(), Replies.ok(command.requestId(), command.correlationId(), result));
            }
            checkRecordSizes(transaction.writes(), output, reply);
        } catch (CommandRejection e) {
            rejection = e;
        } catch (RuntimeException e) {
            rejection = new CommandRejection(ErrorCode.INTERNAL_ERROR, String.valueOf(e));
        }
        if (rejection == null) {
            // Outside the try: a store that fails to take the writes (RocksDB, the changelog) is not the command's
            // fault.
            // It must fail the task, whose transaction is then aborted and whose state comes back from the changelog;
            // turned into a rejection it would consume the command and, the store failing on, every command after it.
            transaction.commit();
            if (reply != null) {
                output.reply(reply);
            }
        } else {
            transaction.discard();
            output.dropAllButReplies();
            if (command.replyTo() != null) {
                output.reply(command.replyTo(), Replies.error(command.requestId(), command.correlationId(), rejection));
            }
        }
        return merge(timeStep, output.toResult(rejection));
    }

    /**
     * Refuses a command ({@code too_large}) whose state change or output holds a record Kafka would refuse: it must
     * change nothing rather than fail its task's transaction at every replay (see {@link RecordLimit}).
     */
    private static void checkRecordSizes(WriteBuffer buffer, Output output, OutRecord reply) {
        // records only: the changelog sends each as one Kafka record; derived indexes stay local
        int largestWrite = buffer.largestWrite(RecordLimit.MAX_RECORD_BYTES, key -> !KeyFamily.isIndex(key));
        if (largestWrite > 0) {
            throw new CommandRejection(
                    ErrorCode.TOO_LARGE,
                    "the command would store a record of " + largestWrite + " bytes; at most "
                            + RecordLimit.MAX_RECORD_BYTES + " (shorter names or smaller data)");
        }
        output.checkRecordSizes(reply);
    }

    /**
     * Who a {@code request_id} belongs to, for keeping answers apart: the worker of a {@code request_attempts} (its
     * assignment goes to the worker), the {@code requester} of any other command that names one, else its
     * {@code reply_to}. Null when the command has no {@code request_id} or no requester: its answer is not kept, and
     * a repeat of it runs again.
     */
    private static String requester(Command command) {
        if (command.requestId() == null) {
            return null;
        }
        if (command.type() == CommandType.REQUEST_ATTEMPTS) {
            JsonNode worker = command.get("worker");
            return worker != null && worker.isTextual() ? worker.textValue() : null;
        }
        String named = command.requester();
        return named != null ? named : command.replyTo();
    }

    /** The first answer again, written from what was kept ({@link Answer}); reads only. */
    private static void repeat(
            Command command, String requester, Answer first, StateReader state, Output output, long now)
            throws CommandRejection {
        String ns = command.namespace();
        JsonNode result = switch (first.kind()) {
            case RESULT -> Json.parse(new String(first.resultJson(), StandardCharsets.UTF_8));
            case ATTEMPT -> {
                AttemptRecord attempt = state.attempts().get(ns, first.attemptSeq());
                yield attempt == null ? NullNode.getInstance() : new StateViews(state, ns, now).attempt(attempt);
            }
            case ATTEMPTS -> {
                Supplier<JsonNode> assignment = output.assignment(
                        requester,
                        RequestAttemptsHandler.assignment(
                                state.attempts(), ns, requester, command.requestId(), first.attemptSeqs()));
                yield command.replyTo() == null ? null : assignment.get();
            }
        };
        if (command.replyTo() != null) {
            output.reply(command.replyTo(), Replies.ok(command.requestId(), command.correlationId(), result));
        }
    }

    /**
     * A result's JSON as kept for repeats: whole, or beyond {@link #MAX_KEPT_RESULT_BYTES} its scalar fields only (an
     * {@code add_work_units} of thousands of units lists every name: a repeat says how many were added, not which).
     */
    static byte[] keptResult(JsonNode result) {
        byte[] json = Json.bytes(result == null ? NullNode.getInstance() : result);
        if (json.length <= MAX_KEPT_RESULT_BYTES) {
            return json;
        }
        ObjectNode summary = Json.object();
        result.fields().forEachRemaining(field -> {
            if (field.getValue().isValueNode() && field.getValue().toString().length() <= 1024) {
                summary.set(field.getKey(), field.getValue());
            }
        });
        return Json.bytes(summary);
    }

    /**
     * The time step: expires pending attempts past their expiration (a replica past its deadline is a
     * {@code no_reply}), releases delayed units that are due, purges finished and failed units whose
     * {@code retention} has run out, and adds the units of cron schedules whose fire time has come, at most
     * {@code limit} of each. Every index entry is re-checked before acting,
     * so stale ones are dropped.
     */
    public EngineResult advanceTime(long now, int limit) {
        Output output = new Output(now);
        EngineState.Transaction transaction = engineState.begin(now, new EventRecorder(output));
        CoordinateState state = transaction.state();
        List<TimeIndexKeys.AttemptDeadlineKey> dueDeadlines =
                state.timeIndexes().dueAttemptDeadlines(now, limit);
        for (TimeIndexKeys.AttemptDeadlineKey due : dueDeadlines) {
            AttemptRecord attempt = state.attempts().get(due.namespace(), due.attemptSeq());
            if (attempt == null
                    || attempt.status() != AttemptStatus.PENDING
                    || attempt.expirationTime() != due.expiration()) {
                state.timeIndexes().dropStaleDeadline(due);
            } else {
                Family family = family(state, output, due.namespace(), now);
                WorkUnitRecord unit =
                        attempt.isReplica() ? state.units().get(due.namespace(), attempt.spec(), attempt.unit()) : null;
                if (Replication.isReplica(unit, attempt)) {
                    replication(family, state, output)
                            .deadlinesPassed(unit, attempt); // with the round's other passed deadlines
                } else {
                    new Retries(family, state.specs(), state.units(), state.attempts()).expire(attempt, attempt.data());
                }
            }
        }
        List<TimeIndexKeys.DelayedUnitKey> dueUnits = state.timeIndexes().dueDelayedUnits(now, limit);
        for (TimeIndexKeys.DelayedUnitKey due : dueUnits) {
            WorkUnitRecord unit = state.units().get(due.namespace(), due.spec(), due.unit());
            if (unit == null
                    || unit.status() != UnitStatus.DELAYED
                    || unit.notBefore() == null
                    || unit.notBefore() != due.notBefore()) {
                state.timeIndexes().dropStaleDelayedEntry(due);
            } else {
                state.units()
                        .release(
                                due.namespace(),
                                unit,
                                unit.toBuilder().status(UnitStatus.AVAILABLE).build());
            }
        }
        for (AnswerKeys.AnswerKey due : state.timeIndexes().dueAnswers(now, limit)) {
            state.answers().forget(due);
        }
        List<TimeIndexKeys.PurgeKey> duePurges = state.timeIndexes().duePurges(now, limit);
        for (TimeIndexKeys.PurgeKey due : duePurges) {
            WorkUnitRecord unit = state.units().get(due.namespace(), due.spec(), due.unit());
            if (unit == null
                    || unit.purgeAt() == null
                    || unit.purgeAt() != due.purgeAt()
                    || !unit.status().isFinal()) {
                state.timeIndexes().dropStalePurge(due);
            } else if (unit.family() != null) {
                family(state, output, due.namespace(), now).delete(UnitRef.of(unit)); // as delete_work_units would
            } else {
                state.units().delete(due.namespace(), unit);
            }
        }
        new ScheduledUnits(state.specs(), state.units(), state.timeIndexes()).addDue(now, limit);
        state.timeIndexes().checkFloors();
        transaction.commitTimeStep();
        return output.toResult(null);
    }

    private static Family family(CoordinateState state, Output output, String ns, long now) {
        return new Family(
                state.units(),
                state.attempts(),
                state.family(),
                state.specs(),
                ns,
                now,
                (unit, data) ->
                        Chaining.chain(state.specs(), ns, now, unit, data, command -> output.chained(ns, command)));
    }

    private static Replication replication(Family family, CoordinateState state, Output output) {
        String ns = family.namespace();
        return new Replication(
                family,
                state.units(),
                state.attempts(),
                state.workers(),
                state.specs(),
                record -> output.result(ns, record));
    }

    private static EngineResult merge(EngineResult first, EngineResult second) {
        if (first.isEmpty()) {
            return second;
        }
        return new EngineResult(
                concat(first.replies(), second.replies()),
                concat(first.assignments(), second.assignments()),
                concat(first.events(), second.events()),
                concat(first.chained(), second.chained()),
                concat(first.results(), second.results()),
                second.rejection(),
                first.counts().plus(second.counts()));
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        if (a.isEmpty()) {
            return b;
        }
        if (b.isEmpty()) {
            return a;
        }
        java.util.ArrayList<T> all = new java.util.ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
