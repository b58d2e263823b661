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
        long seq,
        String worker,
        String host,
        long deadline,
        ReplicaOutcome outcome,
        ValidateState validateState,
        String digest) {

    public String id() {
        return Long.toString(seq);
    }

    public boolean running() {
        return outcome == null;
    }

    /** The replica succeeded with a result of this digest. */
    public Replica withSuccess(String resultDigest) {
        return toBuilder().outcome(ReplicaOutcome.SUCCESS).digest(resultDigest).build();
    }

    /** A builder holding this replica's fields, for a changed copy (see {@link WorkUnitRecord.Builder}). */
    public Builder toBuilder() {
        return new Builder();
    }

    /** A changed copy in the making; each field starts as the enclosing record's. */
    public final class Builder {
        private long seq = Replica.this.seq;
        private String worker = Replica.this.worker;
        private String host = Replica.this.host;
        private long deadline = Replica.this.deadline;
        private ReplicaOutcome outcome = Replica.this.outcome;
        private ValidateState validateState = Replica.this.validateState;
        private String digest = Replica.this.digest;

        private Builder() {}

        public Builder seq(long value) {
            seq = value;
            return this;
        }

        public Builder worker(String value) {
            worker = value;
            return this;
        }

        public Builder host(String value) {
            host = value;
            return this;
        }

        public Builder deadline(long value) {
            deadline = value;
            return this;
        }

        public Builder outcome(ReplicaOutcome value) {
            outcome = value;
            return this;
        }

        public Builder validateState(ValidateState value) {
            validateState = value;
            return this;
        }

        public Builder digest(String value) {
            digest = value;
            return this;
        }

        public Replica build() {
            return new Replica(seq, worker, host, deadline, outcome, validateState, digest);
        }
    }
}
