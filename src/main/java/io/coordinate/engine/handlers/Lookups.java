package io.coordinate.engine.handlers;

import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.ErrorCode;
import java.util.OptionalLong;

/** Finds what a command names, or rejects it with the matching {@code no_such_*} code. */
final class Lookups {

    private Lookups() {}

    static WorkSpecRecord spec(CommandContext ctx, String name) {
        WorkSpecRecord spec = ctx.specs().get(ctx.namespace(), name);
        if (spec == null) {
            throw new CommandRejection(ErrorCode.NO_SUCH_WORK_SPEC, "no work spec \"" + name + "\"");
        }
        return spec;
    }

    static WorkUnitRecord unit(CommandContext ctx, String spec, String name) {
        WorkUnitRecord unit = ctx.units().get(ctx.namespace(), spec, name);
        if (unit == null) {
            throw new CommandRejection(
                    ErrorCode.NO_SUCH_WORK_UNIT, "no work unit \"" + name + "\" in \"" + spec + "\"");
        }
        return unit;
    }

    /** The attempt named by the command's {@code attempt_id}. */
    static AttemptRecord attempt(CommandContext ctx) {
        return attempt(ctx, ctx.command().requiredString("attempt_id"));
    }

    /**
     * The attempt with this id, for a command of its worker: a cancelled attempt answers {@code cancelled}, which tells
     * the worker to stop (docs/reference.md#cancel_work_units).
     */
    static AttemptRecord attempt(CommandContext ctx, String id) {
        OptionalLong seq = attemptSeq(id);
        AttemptRecord attempt = seq.isPresent() ? ctx.attempts().get(ctx.namespace(), seq.getAsLong()) : null;
        if (attempt == null) {
            throw new CommandRejection(ErrorCode.NO_SUCH_ATTEMPT, "no attempt \"" + id + "\"");
        }
        if (attempt.status() == AttemptStatus.CANCELLED) {
            throw new CommandRejection(ErrorCode.CANCELLED, "attempt " + attempt.id() + " was cancelled");
        }
        return attempt;
    }

    /** The number inside an attempt id: the one place attempt ids are parsed. Empty: not one of ours. */
    private static OptionalLong attemptSeq(String id) {
        try {
            return OptionalLong.of(Long.parseLong(id));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
