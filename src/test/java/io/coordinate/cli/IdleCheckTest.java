package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class IdleCheckTest {

    private static final CliFailure REFUSED_CONNECTION = new CliFailure(
            ExitCodes.UNREACHABLE, "cannot reach the HTTP API at http://127.0.0.1:8080: Connection refused", true);
    private static final CliFailure NOT_READY =
            new CliFailure(ExitCodes.REFUSED, "error: unavailable: state store not readable now", true);

    private final AtomicLong clock = new AtomicLong();
    private final List<String> log = new ArrayList<>();
    private final Deque<Object> answers = new ArrayDeque<>();
    private final IdleCheck check = new IdleCheck(
            () -> {
                Object next = answers.removeFirst();
                if (next instanceof CliFailure failure) {
                    throw failure;
                }
                return (Boolean) next;
            },
            Duration.ofSeconds(300),
            clock::get,
            log::add);

    private void after(long seconds, Object answer) {
        clock.addAndGet(Duration.ofSeconds(seconds).toNanos());
        answers.addLast(answer);
    }

    @Test
    void anAppRestartingWithinThePatienceIsWaitedOut() {
        after(0, false);
        assertThat(check.idle()).isFalse();
        after(1, REFUSED_CONNECTION);
        assertThat(check.idle()).isFalse();
        after(5, NOT_READY);
        assertThat(check.idle()).isFalse();
        after(294, NOT_READY); // 299 s since the first failure
        assertThat(check.idle()).isFalse();
        after(1, true);
        assertThat(check.idle()).isTrue();
        assertThat(log)
                .containsExactly(
                        "cannot reach the HTTP API at http://127.0.0.1:8080: Connection refused; waiting up to 300 s for it (--patience)",
                        "the HTTP API answers again");
    }

    @Test
    void pastThePatienceTheLastFailureEndsItWithExit3() {
        after(0, REFUSED_CONNECTION);
        assertThat(check.idle()).isFalse();
        after(300, NOT_READY);
        assertThatThrownBy(check::idle)
                .isInstanceOf(CliFailure.class)
                .hasMessage("error: unavailable: state store not readable now (for 300 s, the --patience)")
                .extracting(e -> ((CliFailure) e).exitCode())
                .isEqualTo(ExitCodes.UNREACHABLE);
    }

    @Test
    void thePatienceStartsAgainAfterTheApiAnswered() {
        after(0, REFUSED_CONNECTION);
        assertThat(check.idle()).isFalse();
        after(200, false);
        assertThat(check.idle()).isFalse();
        after(50, REFUSED_CONNECTION);
        assertThat(check.idle()).isFalse();
        after(299, REFUSED_CONNECTION);
        assertThat(check.idle()).isFalse();
    }

    @Test
    void aRefusalThatAnotherTryCannotChangeEndsItAtOnce() {
        after(0, new CliFailure(ExitCodes.REFUSED, "error: no_such_work_spec: no work spec \"s\""));
        assertThatThrownBy(check::idle).hasMessage("error: no_such_work_spec: no work spec \"s\"");
    }
}
