package io.coordinate.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class HeldAttemptsTest {

    private static Attempt attempt(String id) {
        return new Attempt(id, "spec", "unit-" + id, Map.of(), null, null);
    }

    @Test
    void renewalsFallDueInTheOrderAttemptsCameAndARenewedOneMovesToTheEnd() {
        HeldAttempts held = new HeldAttempts(15);
        held.add(attempt("a"), 0);
        held.add(attempt("b"), 5);
        held.add(attempt("c"), 10);
        assertThat(held.nextRenewal()).isEqualTo(15);
        assertThat(held.dueForRenewal(14)).isEmpty();
        assertThat(held.dueForRenewal(20))
                .extracting(h -> h.attempt.attemptId())
                .containsExactly("a", "b");
        assertThat(held.nextRenewal()).isEqualTo(25); // c's
        assertThat(held.all()).extracting(h -> h.attempt.attemptId()).containsExactly("c", "a", "b");
        assertThat(held.dueForRenewal(25))
                .extracting(h -> h.attempt.attemptId())
                .containsExactly("c");
        assertThat(held.get("a").renewAt).isEqualTo(35);
    }

    @Test
    void aLostLeaseIsNeverRenewedAgain() {
        HeldAttempts held = new HeldAttempts(15);
        held.add(attempt("a"), 0).lost = true;
        held.add(attempt("b"), 1);
        assertThat(held.nextRenewal()).isEqualTo(16);
        assertThat(held.dueForRenewal(100))
                .extracting(h -> h.attempt.attemptId())
                .containsExactly("b");
        held.remove("b");
        assertThat(held.nextRenewal()).isEqualTo(Long.MAX_VALUE);
        assertThat(held.size()).isEqualTo(1);
    }

    @Test
    void anAttemptIsEitherClaimedByAHandlerOrWithdrawnNeverBoth() {
        HeldAttempts held = new HeldAttempts(15);
        HeldAttempts.Held first = held.add(attempt("a"), 0);
        assertThat(first.claim()).isTrue();
        assertThat(first.withdraw()).isFalse(); // running: only a cancel stops it
        HeldAttempts.Held second = held.add(attempt("b"), 0);
        assertThat(second.withdraw()).isTrue();
        assertThat(second.claim()).isFalse(); // the handler that comes to it later skips it
    }

    @Test
    void aRenewalWithProgressMovesTheAttemptToTheEnd() {
        HeldAttempts held = new HeldAttempts(15);
        held.add(attempt("a"), 0);
        held.add(attempt("b"), 5);
        held.renewed(held.get("a"), 8);
        assertThat(held.nextRenewal()).isEqualTo(20); // b's
        assertThat(held.all()).extracting(h -> h.attempt.attemptId()).containsExactly("b", "a");
        assertThat(held.get("a").renewAt).isEqualTo(23);
    }

    @Test
    void anAttemptOfASlowAnswerFallsDueFromItsRequestsSendNotFromItsArrival() {
        HeldAttempts held = new HeldAttempts(15);
        held.add(attempt("a"), 10);
        held.add(attempt("b"), 2); // came after a, but its request went out at 2: its lease began before a's
        assertThat(held.nextRenewal()).isEqualTo(17);
        assertThat(held.all()).extracting(h -> h.attempt.attemptId()).containsExactly("b", "a");
        assertThat(held.dueForRenewal(17))
                .extracting(h -> h.attempt.attemptId())
                .containsExactly("b");
        assertThat(held.dueForRenewal(25))
                .extracting(h -> h.attempt.attemptId())
                .containsExactly("a");
        held.remove("b");
        assertThat(held.all()).extracting(h -> h.attempt.attemptId()).containsExactly("a");
        assertThat(held.nextRenewal()).isEqualTo(40);
    }
}
