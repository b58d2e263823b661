package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.state.model.WorkerRecord;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.CommandType;
import io.coordinate.protocol.ErrorCode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Limits;
import io.coordinate.protocol.Times;

/** {@code worker_heartbeat} and {@code deactivate_worker}; workers are also created by their first request. */
public final class WorkerCommands {

    /** A worker is reported expired this long after its last heartbeat unless the heartbeat says otherwise. */
    public static final double DEFAULT_EXPIRE_SECONDS = 900;

    private WorkerCommands() {}

    public static void register(HandlerRegistry registry) {
        registry.register(CommandType.WORKER_HEARTBEAT, WorkerCommands::heartbeat);
        registry.register(CommandType.DEACTIVATE_WORKER, WorkerCommands::deactivate);
    }

    /** Creates or refreshes a worker: active again, with the given parent, mode, data and expiration. */
    static JsonNode heartbeat(CommandContext ctx) {
        String name = ctx.command().requiredString("worker");
        WorkerRecord before = ctx.workers().get(ctx.namespace(), name);
        // "parent": null detaches the worker from its parent; an absent "parent" keeps the one it has.
        boolean detach = ctx.command().body().has("parent")
                && ctx.command().body().get("parent").isNull();
        String parent = ctx.command().has("parent")
                ? ctx.command().requiredString("parent")
                : detach || before == null ? null : before.parent();
        if (name.equals(parent)) {
            throw CommandRejection.badCommand("a worker cannot be its own parent");
        }
        String mode = ctx.command().optionalString("mode", before == null ? "" : before.mode());
        JsonNode data = ctx.command().optionalObject("data");
        if (data == null) {
            data = before == null ? Json.object() : before.data();
        }
        double expire = ctx.command().optionalNumber("expire", DEFAULT_EXPIRE_SECONDS, 0, Limits.MAX_DELAY_SECONDS);
        WorkerRecord after = new WorkerRecord(
                name,
                parent,
                true,
                mode,
                data,
                Times.plus(ctx.now(), expire),
                ctx.now(),
                before == null ? null : before.reliability());
        ctx.workers().write(ctx.namespace(), before, after);
        return ctx.views().worker(after);
    }

    static JsonNode deactivate(CommandContext ctx) {
        String name = ctx.command().requiredString("worker");
        WorkerRecord before = ctx.workers().get(ctx.namespace(), name);
        if (before == null) {
            throw new CommandRejection(ErrorCode.NO_SUCH_WORKER, "no worker \"" + name + "\"");
        }
        WorkerRecord after = new WorkerRecord(
                name,
                before.parent(),
                false,
                before.mode(),
                before.data(),
                before.expiration(),
                ctx.now(),
                before.reliability());
        ctx.workers().write(ctx.namespace(), before, after);
        return ctx.views().worker(after);
    }

    /** Creates a worker on its first request, with the defaults of a first heartbeat. */
    static void touch(CommandContext ctx, String name) {
        if (ctx.workers().get(ctx.namespace(), name) == null) {
            WorkerRecord created = new WorkerRecord(
                    name, null, true, "", Json.object(), Times.plus(ctx.now(), DEFAULT_EXPIRE_SECONDS), ctx.now());
            ctx.workers().write(ctx.namespace(), null, created);
        }
    }
}
