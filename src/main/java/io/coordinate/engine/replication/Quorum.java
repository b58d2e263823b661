package io.coordinate.engine.replication;

import static io.coordinate.engine.state.model.ReplicaOutcome.CLIENT_ERROR;
import static io.coordinate.engine.state.model.ReplicaOutcome.DIDNT_NEED;
import static io.coordinate.engine.state.model.ReplicaOutcome.NO_REPLY;
import static io.coordinate.engine.state.model.ReplicaOutcome.SUCCESS;

import io.coordinate.engine.state.model.Replica;
import io.coordinate.engine.state.model.ReplicationConfig;
import io.coordinate.engine.state.model.ReplicationState;
import io.coordinate.engine.state.model.ValidateState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * BOINC's transitioner and validator as one pure function of a unit's round
 * (docs/replication.md#the-transitioner-and-the-validator): the engine runs it after every change to a replica, and
 * both the time step and the views apply the deadlines that passed with {@link #afterDeadlines}. It reads nothing but
 * the round, so a decision needs no attempt read.
 *
 * <ol>
 *   <li>Validator: when successes >= {@code min_quorum} and one of them is new, the first success (in the order
 *       the replicas were handed out) that at least {@code min_quorum/2 + 1} successes match becomes canonical;
 *       the successes that match it are {@code valid}, the others {@code invalid}. Without consensus every
 *       success is {@code inconclusive}; more successes than {@code max_success_results} set bit 4; and when
 *       successes >= target, one more replica is needed: target = successes + 1.
 *   <li>Transitioner, without a canonical result: more failed and unanswered replicas than
 *       {@code max_error_results} set bit 2. If replicas are still needed (target − running − successes), and
 *       handing them out would make more than {@code max_total_results} replicas, bit 8; more than the spec's
 *       {@code max_retries} (when set), bit 1 ("couldn't send").
 *   <li>Decided (a canonical result or an error bit): running replicas are not needed any more
 *       ({@code didnt_need}); on an error, the successes not yet judged are {@code no_check}.
 * </ol>
 *
 * A canonical result wins: the error bits are only looked at while there is none.
 */
public final class Quorum {

    /** A round after a pass, and how many more replicas it needs now (0 once decided). */
    public record Pass(ReplicationState round, int needed) {

        public boolean decided() {
            return round.decided();
        }
    }

    /**
     * The order in which deadlines take effect: by time, then by attempt id, as the time step's deadline index
     * orders them. Taking them one at a time in this order makes the round the same whether a time step ran between
     * two deadlines or only after both.
     */
    public static final Comparator<Replica> DEADLINE_ORDER =
            Comparator.comparingLong(Replica::deadline).thenComparingLong(Replica::seq);

    private Quorum() {}

    /** One pass of the validator and the transitioner over an undecided round; a decided round is returned as is. */
    public static Pass evaluate(ReplicationConfig config, long maxRetries, ReplicationState round) {
        if (round.decided()) {
            return new Pass(round, 0);
        }
        List<Replica> replicas = new ArrayList<>(round.replicas());
        int target = target(config, round);
        int mask = round.errorMask();
        Long canonical = null;
        int successes = count(replicas, SUCCESS);
        boolean fresh =
                replicas.stream().anyMatch(r -> r.outcome() == SUCCESS && r.validateState() == ValidateState.INIT);
        if (successes >= config.minQuorum() && fresh) {
            String canonicalDigest = null;
            for (Replica candidate : replicas) {
                if (candidate.outcome() == SUCCESS && matches(replicas, candidate.digest()) >= config.majority()) {
                    canonical = candidate.seq();
                    canonicalDigest = candidate.digest();
                    break;
                }
            }
            for (int i = 0; i < replicas.size(); i++) {
                Replica replica = replicas.get(i);
                if (replica.outcome() == SUCCESS) {
                    ValidateState judged = canonical == null
                            ? ValidateState.INCONCLUSIVE
                            : Objects.equals(replica.digest(), canonicalDigest)
                                    ? ValidateState.VALID
                                    : ValidateState.INVALID;
                    replicas.set(i, replica.toBuilder().validateState(judged).build());
                }
            }
            if (canonical == null) {
                if (successes > config.maxSuccessResults()) {
                    mask |= ReplicationState.TOO_MANY_SUCCESSES;
                }
                if (successes >= target) {
                    target = successes + 1;
                }
            }
        }
        if (canonical == null) {
            if (count(replicas, CLIENT_ERROR) + count(replicas, NO_REPLY) > config.maxErrorResults()) {
                mask |= ReplicationState.TOO_MANY_ERRORS;
            }
            int needed = target - running(replicas) - successes;
            if (mask == 0 && needed > 0) {
                if (replicas.size() + needed > config.maxTotalResults()) {
                    mask |= ReplicationState.TOO_MANY_TOTAL;
                }
                if (maxRetries > 0 && replicas.size() + needed > maxRetries) {
                    mask |= ReplicationState.COULDNT_SEND;
                }
            }
        }
        ReplicationState after = round.toBuilder()
                .replicas(replicas)
                .target(target == config.targetNresults() ? 0 : target)
                .errorMask(mask)
                .canonical(canonical)
                .build();
        if (after.decided()) {
            return new Pass(settled(after), 0);
        }
        return new Pass(after, needed(config, after));
    }

    /** Sets error bits on an undecided round (cancel, or a replica that cannot be sent) and settles it. */
    public static ReplicationState fail(ReplicationState round, int bits) {
        return settled(round.toBuilder().errorMask(round.errorMask() | bits).build());
    }

    /** A replica of a decided round reported success: it is validated against the canonical result, if any. */
    public static ReplicationState lateSuccess(ReplicationState round, long seq, String digest) {
        Replica canonical = round.canonical() == null ? null : round.replica(round.canonical());
        ValidateState judged = canonical == null
                ? ValidateState.NO_CHECK
                : canonical.digest().equals(digest) ? ValidateState.VALID : ValidateState.INVALID;
        return round.withReplica(
                seq,
                r -> r.withSuccess(digest).toBuilder().validateState(judged).build());
    }

    /**
     * A replica timed out, or was expired or retried: {@code no_reply} if it still ran, then a pass — unless the unit
     * is closed (decided, or ended by its family), when only the replica changes.
     */
    public static Pass noReply(
            ReplicationConfig config, long maxRetries, ReplicationState round, long seq, boolean closed) {
        ReplicationState after = round.replica(seq).running()
                ? round.withReplica(seq, r -> r.toBuilder().outcome(NO_REPLY).build())
                : round;
        return closed ? new Pass(after, 0) : evaluate(config, maxRetries, after);
    }

    /**
     * The round once every deadline that passed before {@code now} has been applied: the time step applies them with
     * this, and every read shows the round through it, so both agree. The deadlines go one at a time, each a
     * {@link #noReply}, in the order they passed ({@link #DEADLINE_ORDER}); once one decides the round, the replicas
     * still running are {@code didnt_need}, whether their own deadline has passed since or not. The pass of a round
     * with no deadline passed is the round as it is.
     */
    public static Pass afterDeadlines(
            ReplicationConfig config, long maxRetries, ReplicationState round, boolean closed, long now) {
        Pass pass = new Pass(round, closed ? 0 : needed(config, round));
        for (Replica replica : overdue(round, now)) {
            pass = noReply(config, maxRetries, pass.round(), replica.seq(), closed);
        }
        return pass;
    }

    /** The running replicas of the round past their deadline at {@code now}, in {@link #DEADLINE_ORDER}. */
    public static List<Replica> overdue(ReplicationState round, long now) {
        return round.replicas().stream()
                .filter(r -> r.running() && r.deadline() < now)
                .sorted(DEADLINE_ORDER)
                .toList();
    }

    /** Replicas still to hand out: target − running − successes; 0 once decided. */
    public static int needed(ReplicationConfig config, ReplicationState round) {
        if (round.decided()) {
            return 0;
        }
        List<Replica> replicas = round.replicas();
        return Math.max(0, target(config, round) - running(replicas) - count(replicas, SUCCESS));
    }

    /** The round's {@code target_nresults}: the spec's, or more after a validation without consensus. */
    public static int target(ReplicationConfig config, ReplicationState round) {
        return Math.max(config.targetNresults(), round.target());
    }

    private static ReplicationState settled(ReplicationState round) {
        List<Replica> replicas = new ArrayList<>(round.replicas().size());
        for (Replica replica : round.replicas()) {
            if (replica.running()) {
                replica = replica.toBuilder().outcome(DIDNT_NEED).build();
            } else if (round.canonical() == null
                    && replica.outcome() == SUCCESS
                    && (replica.validateState() == ValidateState.INIT
                            || replica.validateState() == ValidateState.INCONCLUSIVE)) {
                replica = replica.toBuilder()
                        .validateState(ValidateState.NO_CHECK)
                        .build();
            }
            replicas.add(replica);
        }
        return round.toBuilder().replicas(replicas).build();
    }

    private static int count(List<Replica> replicas, io.coordinate.engine.state.model.ReplicaOutcome outcome) {
        int n = 0;
        for (Replica replica : replicas) {
            if (replica.outcome() == outcome) {
                n++;
            }
        }
        return n;
    }

    private static int running(List<Replica> replicas) {
        int n = 0;
        for (Replica replica : replicas) {
            if (replica.running()) {
                n++;
            }
        }
        return n;
    }

    private static int matches(List<Replica> replicas, String digest) {
        int n = 0;
        for (Replica replica : replicas) {
            if (replica.outcome() == SUCCESS && Objects.equals(replica.digest(), digest)) {
                n++;
            }
        }
        return n;
    }
}
