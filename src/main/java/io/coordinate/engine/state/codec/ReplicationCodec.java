package io.coordinate.engine.state.codec;

import static io.coordinate.engine.state.codec.FieldMask.bit;
import static io.coordinate.engine.state.codec.FieldMask.has;

import io.coordinate.engine.state.model.Replica;
import io.coordinate.engine.state.model.ReplicaOutcome;
import io.coordinate.engine.state.model.ReplicationState;
import io.coordinate.engine.state.model.ValidateState;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The stored form of a unit's {@link ReplicationState} and its {@link Replica}s, inside a unit's value (see
 * {@link BinaryRecords}), with the stored codes of {@link ReplicaOutcome} and {@link ValidateState}.
 */
final class ReplicationCodec {

    private static final int R_CANONICAL = 1;
    private static final int R_ASSIMILATED_AT = 1 << 1;

    private static final int P_WORKER = 1;
    private static final int P_HOST = 1 << 1;
    private static final int P_OUTCOME = 1 << 2;
    private static final int P_VALIDATE_STATE = 1 << 3;
    private static final int P_DIGEST = 1 << 4;

    private ReplicationCodec() {}

    static void writeReplication(BinaryOut out, ReplicationState replication) throws IOException {
        out.byte8(bit(replication.canonical(), R_CANONICAL) | bit(replication.assimilatedAt(), R_ASSIMILATED_AT));
        out.varlong(replication.round());
        out.varlong(replication.target());
        out.varlong(replication.errorMask());
        out.varlong(replication.canonical());
        out.varlong(replication.assimilatedAt());
        out.unsigned(replication.replicas().size());
        for (Replica replica : replication.replicas()) {
            out.byte8(bit(replica.worker(), P_WORKER)
                    | bit(replica.host(), P_HOST)
                    | bit(replica.outcome(), P_OUTCOME)
                    | bit(replica.validateState(), P_VALIDATE_STATE)
                    | bit(replica.digest(), P_DIGEST));
            out.varlong(replica.seq());
            out.string(replica.worker());
            out.string(replica.host());
            out.varlong(replica.deadline());
            if (replica.outcome() != null) {
                out.byte8(outcomeCode(replica.outcome()));
            }
            if (replica.validateState() != null) {
                out.byte8(validateStateCode(replica.validateState()));
            }
            out.string(replica.digest());
        }
    }

    static ReplicationState readReplication(BinaryIn in) throws IOException {
        int mask = in.byte8();
        int round = in.varint();
        int target = in.varint();
        int errorMask = in.varint();
        Long canonical = has(mask, R_CANONICAL) ? in.varlong() : null;
        Long assimilatedAt = has(mask, R_ASSIMILATED_AT) ? in.varlong() : null;
        int count = in.count();
        List<Replica> replicas = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int replicaMask = in.byte8();
            long seq = in.varlong();
            String worker = has(replicaMask, P_WORKER) ? in.string() : null;
            String host = has(replicaMask, P_HOST) ? in.string() : null;
            long deadline = in.varlong();
            ReplicaOutcome outcome = has(replicaMask, P_OUTCOME) ? outcome(in.byte8()) : null;
            ValidateState validateState = has(replicaMask, P_VALIDATE_STATE) ? validateState(in.byte8()) : null;
            String digest = has(replicaMask, P_DIGEST) ? in.string() : null;
            replicas.add(new Replica(seq, worker, host, deadline, outcome, validateState, digest));
        }
        return new ReplicationState(round, target, errorMask, canonical, assimilatedAt, replicas);
    }

    // These enums have no stored code of their own: these are theirs. Never reuse one.

    private static int outcomeCode(ReplicaOutcome outcome) {
        return switch (outcome) {
            case SUCCESS -> 's';
            case CLIENT_ERROR -> 'e';
            case NO_REPLY -> 'n';
            case DIDNT_NEED -> 'd';
        };
    }

    private static ReplicaOutcome outcome(int code) throws IOException {
        return switch (code) {
            case 's' -> ReplicaOutcome.SUCCESS;
            case 'e' -> ReplicaOutcome.CLIENT_ERROR;
            case 'n' -> ReplicaOutcome.NO_REPLY;
            case 'd' -> ReplicaOutcome.DIDNT_NEED;
            default -> throw new IOException("unknown replica outcome code " + code);
        };
    }

    private static int validateStateCode(ValidateState state) {
        return switch (state) {
            case INIT -> 'i';
            case VALID -> 'v';
            case INVALID -> 'x';
            case INCONCLUSIVE -> 'c';
            case NO_CHECK -> 'n';
            case TOO_LATE -> 'l';
        };
    }

    private static ValidateState validateState(int code) throws IOException {
        return switch (code) {
            case 'i' -> ValidateState.INIT;
            case 'v' -> ValidateState.VALID;
            case 'x' -> ValidateState.INVALID;
            case 'c' -> ValidateState.INCONCLUSIVE;
            case 'n' -> ValidateState.NO_CHECK;
            case 'l' -> ValidateState.TOO_LATE;
            default -> throw new IOException("unknown validate state code " + code);
        };
    }
}
