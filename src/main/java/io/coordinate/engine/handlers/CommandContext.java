package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.family.Family;
import io.coordinate.engine.replication.Replication;
import io.coordinate.engine.state.MutableAttemptState;
import io.coordinate.engine.state.MutableNamespaceState;
import io.coordinate.engine.state.MutableSpecState;
import io.coordinate.engine.state.MutableUnitState;
import io.coordinate.engine.state.MutableWorkerState;
import io.coordinate.engine.state.StateReader;
import io.coordinate.engine.state.model.Answer;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.view.StateViews;
import io.coordinate.protocol.Command;
import java.util.List;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * What a handler gets: the command, the time, the state modules it changes, the state read-only for its reply's
 * views, and where its records go. Not the command's transaction: the engine alone sets who hears of the changes,
 * writes them and commits or drops them.
 */
public final class CommandContext {

    /**
     * Where a command's records go: the engine's output, which collects them by topic. An interface, so that the
     * handlers, which the engine calls, do not depend on the engine back.
     */
    public interface Records {

        /** A record for {@code coordinate.results}, keyed by namespace. */
        void result(String ns, JsonNode record);

        /**
         * An assignment for {@code coordinate.assignments}, keyed by worker, its JSON written already; returns it as a
         * tree, parsed only when asked for (by a reply that repeats it).
         */
        Supplier<JsonNode> assignment(String worker, byte[] json);

        /** A follow-up command for {@code coordinate.chained}, keyed by namespace. */
        void chained(String ns, JsonNode command);
    }

    private final Command command;
    private final long now;
    private final StateReader reads;
    private final MutableNamespaceState namespaces;
    private final MutableSpecState specs;
    private final MutableUnitState units;
    private final MutableAttemptState attempts;
    private final MutableWorkerState workers;
    private final Records output;
    private final RandomGenerator random;
    private Family family;
    private Replication replication;
    /** What the answer is made of, when a handler says (see {@link #answerIsAttempt}); else the reply's result. */
    private Answer answer;

    /** @param reads the same state read-only: what the views show, and the job trees' links */
    public CommandContext(
            Command command,
            long now,
            StateReader reads,
            MutableNamespaceState namespaces,
            MutableSpecState specs,
            MutableUnitState units,
            MutableAttemptState attempts,
            MutableWorkerState workers,
            Records output,
            RandomGenerator random) {
        this.command = command;
        this.now = now;
        this.reads = reads;
        this.namespaces = namespaces;
        this.specs = specs;
        this.units = units;
        this.attempts = attempts;
        this.workers = workers;
        this.output = output;
        this.random = random;
    }

    public Command command() {
        return command;
    }

    public String namespace() {
        return command.namespace();
    }

    /** The engine's time for this command, epoch millis. Handlers never read a clock themselves. */
    public long now() {
        return now;
    }

    public MutableNamespaceState namespaces() {
        return namespaces;
    }

    public MutableSpecState specs() {
        return specs;
    }

    public MutableUnitState units() {
        return units;
    }

    public MutableAttemptState attempts() {
        return attempts;
    }

    public MutableWorkerState workers() {
        return workers;
    }

    /** The views of the state as this command has changed it so far, for its reply. */
    public StateViews views() {
        return new StateViews(reads, namespace(), now);
    }

    /** The units of {@code spec} that {@code query} selects, by their statuses as of now. */
    public List<WorkUnitRecord> select(UnitQuery query, String spec) {
        return query.run(reads, namespace(), spec, now);
    }

    public RandomGenerator random() {
        return random;
    }

    /**
     * Job trees (docs/children-and-heirs.md) for this command, with {@code then} chaining to {@code coordinate.chained}.
     */
    public Family family() {
        if (family == null) {
            family = new Family(
                    units,
                    attempts,
                    reads.family(),
                    specs,
                    namespace(),
                    now,
                    (unit, data) -> Chaining.chain(this, unit, data));
        }
        return family;
    }

    /**
     * Redundant execution (docs/replication.md) for this command: assimilated records go to {@code coordinate.results}.
     */
    public Replication replication() {
        if (replication == null) {
            replication = new Replication(
                    family(), units, attempts, workers, specs, record -> output.result(namespace(), record));
        }
        return replication;
    }

    /**
     * The answer is the view of this attempt (an attempt command's): a repeat of the command's {@code request_id}
     * writes the view again rather than the engine keeping its JSON.
     */
    public void answerIsAttempt(long seq) {
        answer = Answer.attempt(0, seq);
    }

    /** The answer is the assignment of these attempts ({@code request_attempts}), in this order. */
    public void answerIsAssignment(long[] seqs) {
        answer = Answer.attempts(0, seqs);
    }

    /** What a handler said its answer is made of, or null: what the engine keeps for a repeat of the command. */
    public Answer answer() {
        return answer;
    }

    /**
     * Emits a record on {@code coordinate.assignments} (keyed by worker, its JSON written already): the assignment of a
     * {@code request_attempts}, or a cancel's notice ({@link CancelNotices}).
     */
    public Supplier<JsonNode> assignment(String worker, byte[] json) {
        return output.assignment(worker, json);
    }

    /** Emits a follow-up command on {@code coordinate.chained}. */
    public void chained(ObjectNode command) {
        output.chained(command.get("namespace").asText(), command);
    }
}
