package io.coordinate.engine.state;

import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;

public interface MutableAttemptState extends AttemptState {

  /** The next attempt number of the namespace; numbers are never reused, not even after a destroy. */
  long nextSeq(String ns);

  /**
   * Starts {@code attempt} at a unit, which moves from {@code before} (as stored) to {@code after}. Events: the
   * attempt's, then the unit's.
   */
  void start(String ns, WorkUnitRecord before, WorkUnitRecord after, AttemptRecord attempt);

  /**
   * A request's start of attempt {@code seq} of {@code worker} at {@code before}, a unit not pending on any
   * attempt: the unit becomes pending on it ({@link WorkUnitRecord#startedOn}, {@link AttemptRecord#started}).
   */
  AttemptRecord startRequested(
      String ns, WorkUnitRecord before, long seq, String worker, long startTime, long expirationTime);

  /** Changes an attempt (its status, lease or data); an attempt is created by {@link #start}. */
  void write(String ns, AttemptRecord before, AttemptRecord after);
}
