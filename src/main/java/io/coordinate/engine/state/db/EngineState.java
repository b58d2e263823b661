package io.coordinate.engine.state.db;

import io.coordinate.engine.state.CoordinateState;
import io.coordinate.engine.state.StateListener;
import io.coordinate.storage.KeyValueStore;
import io.coordinate.storage.WriteBuffer;

/**
 * The engine's state: the store and what the engine keeps across commands (where scans may start, specs decoded). Each command runs in a {@link Transaction}, which commits or discards all of them together.
 */
public final class EngineState {

    private final KeyValueStore store;
    private final ScanHints hints = new ScanHints();
    private final DecodedSpecs decodedSpecs = new DecodedSpecs();

    public EngineState(KeyValueStore store) {
        this.store = store;
    }

    /**
     * A command's (or a time step's) transaction at time {@code now}: its writes buffered, its state over them, every
     * change told to {@code listener}.
     */
    public Transaction begin(long now, StateListener listener) {
        return new Transaction(now, listener);
    }

    /** One command's view and changes: nothing reaches the store or the engine's structures before {@link #commit}. */
    public final class Transaction {
        private final WriteBuffer buffer = new WriteBuffer(store);
        private final DbState state = DbState.over(buffer, hints, decodedSpecs);

        private Transaction(long now, StateListener listener) {
            state.setTime(now);
            state.setListener(listener);
        }

        /** The state the command reads and changes; its writes reach the store only through {@link #commit}. */
        public CoordinateState state() {
            return state;
        }

        /** The command's writes, those the modules still keep in memory included: for checks before the commit. */
        public WriteBuffer writes() {
            state.flush();
            return buffer;
        }

        /** Writes the state's pending changes and the command's writes, and keeps what the engine learned. */
        public void commit() {
            state.flush();
            buffer.commit();
            hints.commit();
        }

        /** Drops the command's writes and what the engine learned from them. */
        public void discard() {
            buffer.discard();
            hints.discard();
        }

        /** {@link #commit} of a time step, after which the time indexes' floors hold. */
        public void commitTimeStep() {
            commit();
            hints.timeStepCommitted();
        }
    }
}
