package io.coordinate.metrics;

import io.coordinate.engine.EngineResult;
import io.coordinate.protocol.CommandType;
import io.coordinate.protocol.ErrorCode;

/**
 * What the stream processor tells the metrics: one call per record it applies, one per time step that changed
 * something. Called on the stream thread: implementations must be cheap and never block.
 */
public interface CommandObserver {

    /**
     * A command the engine handled.
     *
     * @param recordTimestamp the command record's timestamp (epoch ms)
     * @param now the time the engine was given (epoch ms)
     * @param handlingNanos how long the engine took
     */
    void command(CommandType type, EngineResult result, long recordTimestamp, long now, long handlingNanos);

    /** A record refused before the engine saw it (unreadable, too large, on the wrong partition). */
    void refused(ErrorCode code);

    /** A record copied to the dead-letter topic. */
    void deadLettered(ErrorCode code);

    /** A time step (expiries, releases, purges) that changed something. */
    void timeStep(EngineResult result, long now);

    /** Observes nothing: for topologies run without metrics (tests, tools). */
    CommandObserver NONE = new CommandObserver() {
        @Override
        public void command(
                CommandType type, EngineResult result, long recordTimestamp, long now, long handlingNanos) {}

        @Override
        public void refused(ErrorCode code) {}

        @Override
        public void deadLettered(ErrorCode code) {}

        @Override
        public void timeStep(EngineResult result, long now) {}
    };
}
