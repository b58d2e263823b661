package io.coordinate.engine.state.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A replicated unit's current round (docs/replication.md): BOINC's workunit fields. Kept in the unit record; null for a
 * unit that never ran as replicas. A reset or re-add of a decided unit starts the next round.
 *
 * @param round 1, 2, ...: which round this is (a reset or re-add starts the next one)
 * @param target BOINC's bumped {@code target_nresults} after a validation without consensus; 0 = the spec's
 * @param errorMask BOINC's error bits ({@link #COULDNT_SEND} ...); 0 = none
 * @param canonical the canonical replica's attempt; null = none (yet)
 * @param assimilatedAt when the round was decided and its record went to {@code coordinate.results}; null = not yet
 * @param replicas the round's replicas, in the order they were handed out
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReplicationState(
        int round, int target, int errorMask, Long canonical, Long assimilatedAt, List<Replica> replicas) {

    public static final int COULDNT_SEND = 1;
    public static final int TOO_MANY_ERRORS = 2;
    public static final int TOO_MANY_SUCCESSES = 4;
    public static final int TOO_MANY_TOTAL = 8;
    public static final int CANCELLED = 16;

    public ReplicationState {
        replicas = replicas == null ? List.of() : List.copyOf(replicas);
    }

    /** The first round of a unit. */
    public static ReplicationState first() {
        return new ReplicationState(1, 0, 0, null, null, List.of());
    }

    /** A canonical result or an error bit: nothing more is handed out, late replicas are only validated. */
    public boolean decided() {
        return canonical != null || errorMask != 0;
    }

    /**
     * The round after this one, for a reset or re-add; a round that has not started yet stays as it is, so its
     * number counts only rounds that handed something out.
     */
    public ReplicationState next() {
        if (replicas.isEmpty() && !decided()) {
            return this;
        }
        return new ReplicationState(round + 1, 0, 0, null, null, List.of());
    }

    public Replica replica(long seq) {
        for (Replica replica : replicas) {
            if (replica.seq() == seq) {
                return replica;
            }
        }
        return null;
    }

    public boolean hasHost(String host) {
        for (Replica replica : replicas) {
            if (replica.host().equals(host)) {
                return true;
            }
        }
        return false;
    }

    /** The same round with one more replica. */
    public ReplicationState withReplica(Replica replica) {
        List<Replica> all = new ArrayList<>(replicas);
        all.add(replica);
        return toBuilder().replicas(all).build();
    }

    /** The same round with one replica changed. */
    public ReplicationState withReplica(long seq, UnaryOperator<Replica> change) {
        List<Replica> all = new ArrayList<>(replicas.size());
        for (Replica replica : replicas) {
            all.add(replica.seq() == seq ? change.apply(replica) : replica);
        }
        return toBuilder().replicas(all).build();
    }

    /** A builder holding this round's fields, for a changed copy (see {@link WorkUnitRecord.Builder}). */
    public Builder toBuilder() {
        return new Builder();
    }

    /** A changed copy in the making; each field starts as the enclosing record's. */
    public final class Builder {
        private int round = ReplicationState.this.round;
        private int target = ReplicationState.this.target;
        private int errorMask = ReplicationState.this.errorMask;
        private Long canonical = ReplicationState.this.canonical;
        private Long assimilatedAt = ReplicationState.this.assimilatedAt;
        private List<Replica> replicas = ReplicationState.this.replicas;

        private Builder() {}

        public Builder round(int value) {
            round = value;
            return this;
        }

        public Builder target(int value) {
            target = value;
            return this;
        }

        public Builder errorMask(int value) {
            errorMask = value;
            return this;
        }

        public Builder canonical(Long value) {
            canonical = value;
            return this;
        }

        public Builder assimilatedAt(Long value) {
            assimilatedAt = value;
            return this;
        }

        public Builder replicas(List<Replica> value) {
            replicas = value;
            return this;
        }

        public ReplicationState build() {
            return new ReplicationState(round, target, errorMask, canonical, assimilatedAt, replicas);
        }
    }
}
