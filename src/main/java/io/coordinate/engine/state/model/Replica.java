package io.coordinate.engine.state.model;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One replica of a replicated unit's current round, kept in the unit's {@link ReplicationState} so that the
 * transitioner and validator decide from the unit record alone. The replica's attempt (same {@code seq}) holds
 * its status, times and data.
 *
 * @param host the worker's top-level ancestor when the replica was handed out
 * @param deadline the attempt's expiration (kept equal to it), for views exact at any time
 * @param outcome null while it runs
 * @param digest SHA-256 of the canonical JSON of the finish data's {@code result} (successes only)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Replica(
    long seq, String worker, String host, long deadline, ReplicaOutcome outcome, ValidateState validateState,
    String digest) {

  public String id() {
    return Long.toString(seq);
  }

  public boolean running() {
    return outcome == null;
  }

  public Replica withOutcome(ReplicaOutcome newOutcome) {
    return new Replica(seq, worker, host, deadline, newOutcome, validateState, digest);
  }

  public Replica withValidateState(ValidateState state) {
    return new Replica(seq, worker, host, deadline, outcome, state, digest);
  }

  public Replica withSuccess(String resultDigest) {
    return new Replica(seq, worker, host, deadline, ReplicaOutcome.SUCCESS, validateState, resultDigest);
  }

  public Replica withDeadline(long time) {
    return new Replica(seq, worker, host, time, outcome, validateState, digest);
  }
}
