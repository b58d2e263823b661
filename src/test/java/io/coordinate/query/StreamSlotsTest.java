package io.coordinate.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The event streams' caps: a share per remote address, a total per instance, each slot given back once. */
class StreamSlotsTest {

    private final StreamSlots slots = new StreamSlots(3, 2);

    @Test
    void anAddressAtItsShareIs429WhileAnotherStillGetsASlot() {
        slots.acquire("10.0.0.1");
        slots.acquire("10.0.0.1");
        assertRefused(
                "10.0.0.1",
                429,
                "this client (10.0.0.1) has 2 event streams open on this instance, the most one address may have");
        slots.acquire("10.0.0.2");
        assertThat(slots.open()).isEqualTo(3);
    }

    @Test
    void aFullInstanceIs503ForEveryAddress() {
        slots.acquire("10.0.0.1");
        slots.acquire("10.0.0.2");
        slots.acquire("10.0.0.3");
        assertRefused("10.0.0.4", 503, "this instance serves at most 3 event streams at once");
    }

    @Test
    void aSlotGivenBackServesAgainAndCountsOnce() {
        Runnable first = slots.acquire("10.0.0.1");
        slots.acquire("10.0.0.1");
        first.run();
        first.run(); // a second release (the stream's end, then the server's stop) frees nothing more
        assertThat(slots.open()).isEqualTo(1);
        slots.acquire("10.0.0.1");
        assertRefused(
                "10.0.0.1",
                429,
                "this client (10.0.0.1) has 2 event streams open on this instance, the most one address may have");
        assertThat(slots.open()).isEqualTo(2);
    }

    /** A refusal with {@code Retry-After}: {@code too_many_streams}. */
    private void assertRefused(String client, int status, String message) {
        assertThatThrownBy(() -> slots.acquire(client)).isInstanceOfSatisfying(QueryError.class, e -> {
            assertThat(e.status()).isEqualTo(status);
            assertThat(e.code()).isEqualTo("too_many_streams");
            assertThat(e.retryLater()).isTrue();
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }
}
