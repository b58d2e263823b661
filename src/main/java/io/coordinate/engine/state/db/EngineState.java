package io.coordinate.engine.state.db;

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

  /** A command's (or a time step's) transaction at time {@code now}: its writes buffered, its state over them. */
  public Transaction begin(long now) {
    return new Transaction(now);
  }

  /** One command's view and changes: nothing reaches the store or the engine's structures before {@link #commit}. */
  public final class Transaction {
    private final WriteBuffer buffer = new WriteBuffer(store);
    private final DbState state = DbState.over(buffer, hints, decodedSpecs);

    private Transaction(long now) {
      state.setTime(now);
    }

    public DbState state() {
      return state;
    }

    /** The command's writes, for checks before they are committed. */
    public WriteBuffer writes() {
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
