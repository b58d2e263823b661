package io.coordinate.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.IfExists;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Sends commands to Coordinate Streams over Kafka, one typed method per command, each answering with a future of
 * its typed reply. A refused command completes the future with a {@link CommandRefusedException} carrying the
 * reply's error code; no reply within the client's timeout, with a {@link java.util.concurrent.TimeoutException}.
 *
 * <pre>{@code
 * try (CoordinateClient client = CoordinateClient.builder().namespace("demo").build()) {
 *   client.setWorkSpec(WorkSpec.named("thumbnails").maxRetries(3).build()).join();
 *   client.addWorkUnits("thumbnails", List.of(WorkUnit.named("a.jpg").data(Map.of("size", 128)).build())).join();
 * }
 * }</pre>
 *
 * <p>Replies come back on {@code coordinate.replies} under this client's own {@code reply_to} key, matched by
 * {@code request_id}; the client reads only that key's partition. A client is thread-safe; share one per process.
 */
public final class CoordinateClient implements AutoCloseable {

    private final ClientConnection connection;
    private final String namespace;
    private final Duration timeout;
    private final boolean ownsConnection;

    private CoordinateClient(ClientConnection connection, String namespace, Duration timeout, boolean ownsConnection) {
        this.connection = connection;
        this.namespace = namespace;
        this.timeout = timeout;
        this.ownsConnection = ownsConnection;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The namespace this client's commands go to (null for a client built without one). */
    public String namespace() {
        return namespace;
    }

    /** The key the app answers this client under on {@code coordinate.replies}. */
    public String replyTo() {
        return connection.replyTo();
    }

    /**
     * Sends a command given as a JSON object, for a command or field this client has no method for: sets its
     * {@code namespace} and {@code reply_to}, and answers with the whole reply ({@code ok} and {@code result} or
     * {@code error}), refused or not. A {@code request_id} in the command is kept: sent again with the same one within
     * 10 minutes, the command gets the first answer rather than running again (docs/reference.md, "Repeated
     * commands"); without one, the client sets a fresh one.
     */
    public CompletableFuture<ObjectNode> submit(ObjectNode command, Duration replyTimeout) {
        return connection.call(requireNamespace(namespace), command.deepCopy(), replyTimeout);
    }

    /** A client of another namespace that shares this one's Kafka connection (closing it closes nothing). */
    public CoordinateClient inNamespace(String otherNamespace) {
        return new CoordinateClient(connection, requireNamespace(otherNamespace), timeout, false);
    }

    // --- work specs

    /** Creates the spec, or reloads an existing one (its metadata is derived again from the data). */
    public CompletableFuture<WorkSpecInfo> setWorkSpec(WorkSpec spec) {
        ObjectNode command = command("set_work_spec");
        command.set("work_spec", spec.json());
        return call(command, WorkSpecInfo::from);
    }

    /** Changes only the given metadata fields, e.g. {@code WorkSpecChange.change().paused(true)}. */
    public CompletableFuture<WorkSpecInfo> setWorkSpecMeta(String workSpecName, WorkSpecChange change) {
        ObjectNode command = command("set_work_spec_meta").put("work_spec_name", workSpecName);
        command.set("meta", change.json());
        return call(command, WorkSpecInfo::from);
    }

    /** Deletes the spec with its units and attempts. */
    public CompletableFuture<Void> deleteWorkSpec(String workSpecName) {
        return call(command("delete_work_spec").put("work_spec_name", workSpecName), result -> null);
    }

    // --- work units

    /**
     * Adds units, or replaces units of the same names. However many there are, they go in commands that fit Kafka's
     * record limit, one after the other in order, and the result is the whole: if one is refused, the units before
     * it stay added.
     */
    public CompletableFuture<AddedUnits> addWorkUnits(String workSpecName, List<WorkUnit> units) {
        return addWorkUnits(workSpecName, units, null);
    }

    /**
     * {@link #addWorkUnits(String, List)}, with what to do with a unit whose name exists: with {@link IfExists#KEEP},
     * a producer that replays its input runs no finished work again. The reply names the units added, replaced and
     * kept; null sends no {@code if_exists} (replace, with the plain reply).
     */
    public CompletableFuture<AddedUnits> addWorkUnits(String workSpecName, List<WorkUnit> units, IfExists ifExists) {
        return ListBatches.inOrder(
                ListBatches.split(units, WorkUnit::json),
                batch -> {
                    ObjectNode command = command("add_work_units").put("work_spec_name", workSpecName);
                    if (ifExists != null) {
                        command.put("if_exists", ifExists.wireName());
                    }
                    ArrayNode items = command.putArray("work_units");
                    batch.forEach(unit -> items.add(unit.json()));
                    return call(command, AddedUnits::from);
                },
                AddedUnits::plus);
    }

    /** Sets the priority of the matching units; answers how many matched. */
    public CompletableFuture<Long> prioritizeWorkUnits(String workSpecName, UnitQuery query, double priority) {
        ObjectNode command =
                queryCommand("prioritize_work_units", workSpecName, query).put("priority", priority);
        return call(command, result -> result.path("prioritized").asLong());
    }

    /** Adds {@code adjustment} to the priority of the matching units; answers how many matched. */
    public CompletableFuture<Long> adjustWorkUnitPriority(String workSpecName, UnitQuery query, double adjustment) {
        ObjectNode command =
                queryCommand("prioritize_work_units", workSpecName, query).put("adjustment", adjustment);
        return call(command, result -> result.path("prioritized").asLong());
    }

    /** Deletes the matching units; answers how many were deleted. */
    public CompletableFuture<Long> deleteWorkUnits(String workSpecName, UnitQuery query) {
        return call(
                queryCommand("delete_work_units", workSpecName, query),
                result -> result.path("deleted").asLong());
    }

    /** Drops the active attempt of the matching units so they run again; answers how many were reset. */
    public CompletableFuture<Long> resetWorkUnits(String workSpecName, UnitQuery query) {
        return call(
                queryCommand("reset_work_units", workSpecName, query),
                result -> result.path("reset").asLong());
    }

    /** Cancels the matching units (a running attempt's worker learns it); answers how many were cancelled. */
    public CompletableFuture<Long> cancelWorkUnits(String workSpecName, UnitQuery query) {
        return call(
                queryCommand("cancel_work_units", workSpecName, query),
                result -> result.path("cancelled").asLong());
    }

    // --- attempts

    /**
     * Asks for work and answers with the assignment (also written to {@code coordinate.assignments} under the
     * worker's key, where a {@link Worker} reads it). To retry a call that failed or timed out without risking a
     * second hand-out, give the request a {@link AttemptRequest.Builder#requestId} and send the same request again.
     */
    public CompletableFuture<Assignment> requestAttempts(AttemptRequest request) {
        return call(request.json(), Assignment::from);
    }

    /** Extends the lease to now + {@code extend}; {@code data}, when not null, replaces the attempt's data. */
    public CompletableFuture<AttemptInfo> renewAttempt(String attemptId, Duration extend, Map<String, ?> data) {
        return renewAttempt(attemptId, extend, data, null);
    }

    /** As {@link #renewAttempt(String, Duration, Map)}, reporting {@code progress} too (when not null). */
    public CompletableFuture<AttemptInfo> renewAttempt(
            String attemptId, Duration extend, Map<String, ?> data, AttemptProgress progress) {
        return call(AttemptCommands.renew(attemptId, extend, data, progress), AttemptInfo::from);
    }

    /** Success: the unit is finished, with {@code data} (may be null) as its result. */
    public CompletableFuture<AttemptInfo> finishAttempt(String attemptId, Map<String, ?> data) {
        return call(AttemptCommands.of("finish_attempt", attemptId, data), AttemptInfo::from);
    }

    /**
     * Many finishes, each applied as {@link #finishAttempt} would be: in one command, or in several in order when
     * they would not fit one record.
     */
    public CompletableFuture<FinishedAttempts> finishAttempts(List<Finish> finishes) {
        return ListBatches.inOrder(
                ListBatches.split(finishes, Finish::json),
                batch -> call(AttemptCommands.finishAll(batch), FinishedAttempts::from),
                FinishedAttempts::plus);
    }

    /** A permanent failure: the unit is failed, with {@code data} (e.g. a {@code traceback}). */
    public CompletableFuture<AttemptInfo> failAttempt(String attemptId, Map<String, ?> data) {
        return failAttempt(attemptId, data, false);
    }

    /**
     * A failure, {@code retryable} or not: a retryable one runs again after the spec's {@code retry} policy's delay
     * while it allows more attempts; without a policy, or when not retryable, the unit is failed.
     */
    public CompletableFuture<AttemptInfo> failAttempt(String attemptId, Map<String, ?> data, boolean retryable) {
        return call(AttemptCommands.fail(attemptId, data, retryable), AttemptInfo::from);
    }

    /** Gives the unit back, to run again no sooner than {@code delay} from now. */
    public CompletableFuture<AttemptInfo> retryAttempt(String attemptId, Map<String, ?> data, Duration delay) {
        return retryAttempt(attemptId, data, delay, false);
    }

    /** As {@link #retryAttempt(String, Map, Duration)}; a {@code release} (the worker is stopping) is not counted. */
    public CompletableFuture<AttemptInfo> retryAttempt(
            String attemptId, Map<String, ?> data, Duration delay, boolean release) {
        return call(AttemptCommands.retry(attemptId, data, delay, release), AttemptInfo::from);
    }

    /** Gives the unit back now. */
    public CompletableFuture<AttemptInfo> expireAttempt(String attemptId, Map<String, ?> data) {
        return call(AttemptCommands.of("expire_attempt", attemptId, data), AttemptInfo::from);
    }

    /** One item of {@link #finishAttempts}. */
    public record Finish(String attemptId, Map<String, ?> data) {
        public Finish {
            Objects.requireNonNull(attemptId, "attemptId");
        }

        /** As an item of {@code finish_attempts}. */
        ObjectNode json() {
            ObjectNode item = Json.object().put("attempt_id", attemptId);
            if (data != null) {
                item.set("data", JsonValues.object(data));
            }
            return item;
        }
    }

    // --- workers and namespaces

    /**
     * Creates or refreshes a worker and marks it active; it shows as expired after {@code expire}. {@code parent} and
     * {@code mode} may be null (unchanged).
     */
    public CompletableFuture<WorkerInfo> workerHeartbeat(
            String worker, String parent, String mode, Map<String, ?> data, Duration expire) {
        ObjectNode command = command("worker_heartbeat").put("worker", worker).put("expire", seconds(expire));
        if (parent != null) {
            command.put("parent", parent);
        }
        if (mode != null) {
            command.put("mode", mode);
        }
        if (data != null) {
            command.set("data", JsonValues.object(data));
        }
        return call(command, WorkerInfo::from);
    }

    public CompletableFuture<WorkerInfo> deactivateWorker(String worker) {
        return call(command("deactivate_worker").put("worker", worker), WorkerInfo::from);
    }

    /** Removes everything in this client's namespace. */
    public CompletableFuture<Void> destroyNamespace() {
        return call(command("destroy_namespace"), result -> null);
    }

    /** Sends everything buffered now rather than after the producer's linger. */
    public void flush() {
        connection.flush();
    }

    @Override
    public void close() {
        if (ownsConnection) {
            connection.close();
        }
    }

    // --- for Worker, in this package

    ClientConnection connection() {
        return connection;
    }

    Duration timeout() {
        return timeout;
    }

    /** The reply's result, parsed, or the refusal as a {@link CommandRefusedException}. */
    <T> CompletableFuture<T> call(ObjectNode command, Function<JsonNode, T> result) {
        return connection.call(requireNamespace(namespace), command, timeout).thenApply(reply -> {
            if (!reply.path("ok").asBoolean()) {
                JsonNode error = reply.path("error");
                throw new CommandRefusedException(
                        error.path("code").asText(), error.path("message").asText());
            }
            return result.apply(reply.path("result"));
        });
    }

    private ObjectNode command(String name) {
        return Json.object().put("command", name);
    }

    private ObjectNode queryCommand(String name, String workSpecName, UnitQuery query) {
        ObjectNode command = command(name).put("work_spec_name", workSpecName);
        command.set("query", query.json());
        return command;
    }

    static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }

    private static String requireNamespace(String namespace) {
        if (namespace == null || namespace.isEmpty()) {
            throw new IllegalArgumentException("a namespace is required: set one on the builder, or use inNamespace");
        }
        return namespace;
    }

    /** Configures a {@link CoordinateClient}. */
    public static final class Builder {
        private String bootstrapServers = "127.0.0.1:9092";
        private String namespace;
        private String topicPrefix = "";
        private String replyTo;
        private Duration timeout = Duration.ofSeconds(30);
        private final Map<String, Object> kafkaProperties = new HashMap<>();

        private Builder() {}

        /** Default {@code 127.0.0.1:9092}. */
        public Builder bootstrapServers(String bootstrapServers) {
            this.bootstrapServers = bootstrapServers;
            return this;
        }

        /** The namespace of the client's commands; without one, use {@link #inNamespace} for each. */
        public Builder namespace(String namespace) {
            this.namespace = namespace;
            return this;
        }

        /** The prefix of the deployment's topic names (default none). */
        public Builder topicPrefix(String topicPrefix) {
            this.topicPrefix = topicPrefix;
            return this;
        }

        /** The key the app answers this client under (default {@code client-<uuid>}). */
        public Builder replyTo(String replyTo) {
            this.replyTo = replyTo;
            return this;
        }

        /**
         * How long to wait for a reply, and for Kafka when connecting (default 30 s). A call that gets no reply in time
         * fails with a {@link java.util.concurrent.TimeoutException}; the command may still be applied later.
         */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /** Extra Kafka client settings, e.g. TLS or SASL ({@code security.protocol}, ...). */
        public Builder kafkaProperties(Map<String, ?> properties) {
            kafkaProperties.putAll(properties);
            return this;
        }

        /**
         * Connects: finds the partition of this client's replies and fixes its read position there. Fails with a
         * {@link CoordinateUnreachableException} when Kafka cannot be reached within the timeout.
         */
        public CoordinateClient build() {
            Map<String, Object> properties = new HashMap<>(kafkaProperties);
            properties.putIfAbsent(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
            String key = replyTo != null ? replyTo : "client-" + UUID.randomUUID();
            ClientConnection connection = new ClientConnection(properties, new TopicNames(topicPrefix), key, timeout);
            return new CoordinateClient(connection, namespace, timeout, true);
        }
    }
}
