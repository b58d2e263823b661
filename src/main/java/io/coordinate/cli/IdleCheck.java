package io.coordinate.cli;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * {@code work --until-idle}'s question "is the spec idle?", asked through a restart of the app: an HTTP API that
 * cannot be reached or answers 503 counts as "not idle yet" for up to the patience since the first such answer, as
 * the worker's Kafka traffic waits out the same restart. Past it, the last failure ends the command with exit 3.
 */
final class IdleCheck {

    private final BooleanSupplier ask;
    private final long patienceNanos;
    private final LongSupplier nanoClock;
    private final Consumer<String> log;
    private long failingSince;
    private boolean failing;

    IdleCheck(BooleanSupplier ask, Duration patience, LongSupplier nanoClock, Consumer<String> log) {
        this.ask = ask;
        this.patienceNanos = patience.toNanos();
        this.nanoClock = nanoClock;
        this.log = log;
    }

    /** The answer, false while the API is away within the patience; throws the failure past it. */
    boolean idle() {
        boolean idle;
        try {
            idle = ask.getAsBoolean();
        } catch (CliFailure e) {
            if (!e.isTransient()) {
                throw e;
            }
            long now = nanoClock.getAsLong();
            if (!failing) {
                failing = true;
                failingSince = now;
                log.accept(
                        e.getMessage() + "; waiting up to " + patienceNanos / 1_000_000_000 + " s for it (--patience)");
            } else if (now - failingSince >= patienceNanos) {
                throw new CliFailure(
                        ExitCodes.UNREACHABLE,
                        e.getMessage() + " (for " + patienceNanos / 1_000_000_000 + " s, the --patience)");
            }
            return false;
        }
        if (failing) {
            failing = false;
            log.accept("the HTTP API answers again");
        }
        return idle;
    }
}
