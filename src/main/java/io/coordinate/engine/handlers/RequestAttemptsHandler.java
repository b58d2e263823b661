package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.family.UnitTransitions;
import io.coordinate.engine.replication.Replication;
import io.coordinate.engine.scheduler.Scheduler;
import io.coordinate.engine.scheduler.SpecLoad;
import io.coordinate.engine.scheduler.WorkRequest;
import io.coordinate.engine.state.AttemptState;
import io.coordinate.engine.state.MutableUnitState;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.protocol.Command;
import io.coordinate.protocol.CommandType;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Limits;
import io.coordinate.protocol.Times;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code request_attempts}: choose one spec (see {@link Scheduler}), then hand out its best available units
 * (docs/reference.md#how-the-spec-is-chosen). Reads the spec list and each spec's counters, then only the first units
 * of the available index: the cost does not grow with the number of units in the spec. A replicated spec
 * (docs/replication.md) hands out replicas: each unit stays in the available index until every replica it needs is out,
 * and a request passes over the units its worker's host already has one of (at most
 * {@link Replication#MAX_UNITS_SKIPPED}).
 */
public final class RequestAttemptsHandler {

    public static final double DEFAULT_LIFETIME_SECONDS = 900;

    private RequestAttemptsHandler() {}

    public static void register(HandlerRegistry registry) {
        registry.register(CommandType.REQUEST_ATTEMPTS, RequestAttemptsHandler::requestAttempts);
    }

    static JsonNode requestAttempts(CommandContext ctx) {
        Command command = ctx.command();
        String worker = command.requiredString("worker");
        // As in the reference, a count of 0 asks for one unit; a negative or fractional count is refused.
        long count = Math.max(1, command.optionalWholeNumber("count", 1, 0, Limits.MAX_COUNT));
        double lifetime = command.optionalNumber(
                "lifetime", DEFAULT_LIFETIME_SECONDS, Limits.MIN_LEASE_SECONDS, Limits.MAX_LEASE_SECONDS);
        WorkRequest request = new WorkRequest(
                command.optionalStringList("work_specs"),
                command.optionalStringList("runtimes"),
                command.optionalNumber("available_gb", 0, -Limits.MAX_GB, Limits.MAX_GB));
        WorkerCommands.touch(ctx, worker);

        AssignmentWriter assignment = new AssignmentWriter(ctx.namespace(), worker, command.requestId(), count);
        Set<String> nothingForHost = new HashSet<>();
        RequestRateLimits rateLimits = new RequestRateLimits(ctx, request);
        // A batch whose every unit was auto-failed by max_retries is fetched again
        // (docs/reference.md#how-the-spec-is-chosen).
        while (assignment.isEmpty()) {
            List<SpecLoad> loads = loads(ctx);
            loads.removeIf(load -> nothingForHost.contains(load.name()));
            rateLimits.removeOutOfTokens(loads);
            SpecLoad chosen = Scheduler.choose(loads, request, ctx.now(), ctx.random());
            if (chosen == null) {
                break;
            }
            HandOut handedOut =
                    handOut(ctx, chosen, worker, count, Times.secondsToMillis(lifetime), assignment, rateLimits);
            if (handedOut == HandOut.NOTHING) {
                break;
            }
            if (handedOut == HandOut.NOTHING_FOR_THIS_HOST) {
                // every available unit of this replicated spec has a replica on the worker's host: not a candidate
                nothingForHost.add(chosen.name());
            }
        }
        rateLimits.tellRetryAfter(assignment, count);
        Supplier<JsonNode> assigned = ctx.assignment(worker, assignment.bytes());
        ctx.answerIsAssignment(assignment.seqs());
        // the reply repeats the assignment: parsed back only when one is asked for
        return command.replyTo() == null ? null : assigned.get();
    }

    /**
     * The assignment of these attempts again, as they are now (a renewal since shows its new expiration; an attempt
     * deleted with its unit since is left out): the answer to a repeat of a request's {@code request_id}.
     */
    public static byte[] assignment(AttemptState attempts, String ns, String worker, String requestId, long[] seqs) {
        AssignmentWriter assignment = new AssignmentWriter(ns, worker, requestId, seqs.length);
        for (long seq : seqs) {
            AttemptRecord attempt = attempts.get(ns, seq);
            if (attempt != null) {
                assignment.add(attempt);
            }
        }
        return assignment.bytes();
    }

    private static List<SpecLoad> loads(CommandContext ctx) {
        List<SpecLoad> loads = new ArrayList<>();
        for (WorkSpecRecord spec : ctx.specs().list(ctx.namespace())) {
            loads.add(new SpecLoad(
                    spec.name(),
                    spec.meta(),
                    ctx.units().count(ctx.namespace(), spec.name(), UnitStatus.AVAILABLE),
                    ctx.units().count(ctx.namespace(), spec.name(), UnitStatus.PENDING)));
        }
        return loads;
    }

    /** What {@link #handOut} did. */
    private enum HandOut {
        /** Attempts started, or units auto-failed (they count as tried). */
        TRIED,
        /** Nothing to try: the caller stops. */
        NOTHING,
        /**
         * A spec with available units but none for this request: a replicated spec's all have a replica on this host
         * already, or a spec's groups with available units are all at their cap.
         */
        NOTHING_FOR_THIS_HOST
    }

    /**
     * Starts attempts at up to {@code min(count, max_getwork, max_running − pending)} units of the spec, fewer if its
     * rate limit has fewer tokens or the assignment fills its record first ({@link AssignmentWriter#full}).
     */
    private static HandOut handOut(
            CommandContext ctx,
            SpecLoad spec,
            String worker,
            long count,
            long lifetimeMillis,
            AssignmentWriter assignment,
            RequestRateLimits rateLimits) {
        MutableUnitState units = ctx.units();
        String ns = ctx.namespace();
        long limit = count;
        if (spec.meta().maxAttemptsReturned() > 0) {
            limit = Math.min(limit, spec.meta().maxAttemptsReturned());
        }
        if (spec.meta().maxRunning() > 0) {
            limit = Math.min(limit, spec.meta().maxRunning() - spec.pending());
        }
        if (limit <= 0) {
            return HandOut.NOTHING;
        }
        int max = (int) Math.min(rateLimits.allowed(spec, limit), Integer.MAX_VALUE);
        int before = assignment.size();
        boolean replicated = spec.meta().replication() != null;
        String host = replicated ? ctx.replication().host(worker) : null;
        Map<String, WorkUnitRecord> read = new HashMap<>();
        GroupedHandOut grouped = GroupedHandOut.of(ctx, spec.name(), spec.meta().groups(), max, rateLimits);
        List<String> names = grouped != null
                ? grouped.names()
                : !replicated
                        ? units.bestAvailable(ns, spec.name(), max)
                        // a host never gets two replicas of one unit: skip those it has, up to a bound (see
                        // docs/replication.md)
                        : units.bestAvailable(ns, spec.name(), max, Replication.MAX_UNITS_SKIPPED, name -> {
                            WorkUnitRecord unit = units.get(ns, spec.name(), name);
                            read.put(name, unit);
                            return Replication.canTake(unit, host);
                        });
        if (names.isEmpty()) {
            if (!Scheduler.canStartContinuous(spec, ctx.now())) {
                return (replicated || grouped != null) && spec.available() > 0
                        ? HandOut.NOTHING_FOR_THIS_HOST
                        : HandOut.NOTHING;
            }
            names = List.of(createContinuousUnit(ctx, spec));
            grouped = null; // the new unit has no group: no pick of the round robin to account for
        }
        int tried = 0;
        int used = 0;
        for (String name : names) {
            if (assignment.full()) {
                break; // the rest stay available, for the next request
            }
            used++;
            int added = assignment.size();
            WorkUnitRecord unit = read.containsKey(name) ? read.get(name) : units.get(ns, spec.name(), name);
            long maxRetries = spec.meta().maxRetries();
            if (replicated || Replication.roundUnderWay(unit)) {
                String replicaHost = host != null ? host : ctx.replication().host(worker);
                if (Replication.canTake(unit, replicaHost)) {
                    tried++;
                    AttemptRecord replica = ctx.replication().start(unit, worker, replicaHost, lifetimeMillis);
                    if (replica != null) {
                        assignment.add(replica); // null: it could not be sent, and failed
                    }
                }
            } else {
                tried++;
                if (maxRetries > 0 && unit.attemptCount() >= maxRetries) {
                    autoFail(ctx, unit, worker, lifetimeMillis);
                } else {
                    assignment.add(
                            UnitTransitions.startAttempt(ctx.attempts(), ns, unit, worker, lifetimeMillis, ctx.now()));
                }
            }
            if (grouped != null && assignment.size() > added) {
                grouped.started(used - 1);
            }
        }
        rateLimits.started(spec, limit, assignment.size() - before);
        if (grouped != null) {
            grouped.finish(ctx, spec.name(), used);
        }
        return tried > 0 ? HandOut.TRIED : HandOut.NOTHING_FOR_THIS_HOST;
    }

    /** The N+1th attempt of a unit with {@code max_retries} N is created failed, and fails the unit. */
    private static void autoFail(CommandContext ctx, WorkUnitRecord unit, String worker, long lifetimeMillis) {
        AttemptRecord attempt =
                UnitTransitions.startAttempt(ctx.attempts(), ctx.namespace(), unit, worker, lifetimeMillis, ctx.now());
        ObjectNode data = Json.object();
        data.put("traceback", "too many retries");
        UnitTransitions.endAttempt(ctx.family(), attempt, AttemptStatus.FAILED, data);
    }

    /** A continuous spec's new unit: named after the time, data {}, and the next one not before interval. */
    private static String createContinuousUnit(CommandContext ctx, SpecLoad load) {
        long now = ctx.now();
        String name = String.format("%d.%03d", Math.floorDiv(now, 1000), Math.floorMod(now, 1000));
        WorkUnitRecord before = ctx.units().get(ctx.namespace(), load.name(), name);
        WorkUnitRecord unit = WorkUnitRecord.builder(load.name(), name)
                .data(Json.object())
                .attemptCount(before == null ? 0 : before.attemptCount())
                .build();
        if (before == null) {
            ctx.units().add(ctx.namespace(), unit);
        } else {
            ctx.units().replace(ctx.namespace(), before, unit);
        }
        WorkSpecRecord spec = ctx.specs().get(ctx.namespace(), load.name());
        long next = Times.plus(now, spec.meta().interval());
        ctx.specs().write(ctx.namespace(), spec, spec.withMeta(spec.meta().withNextContinuous(next)));
        return name;
    }
}
