package io.coordinate.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CommitPolicyTest {

    private static final long MS = 1_000_000;
    // interval 100 ms, idle 2 ms, spacing 20 ms; the task started at 1000 ms
    private final CommitPolicy policy = new CommitPolicy(100 * MS, 2 * MS, 20 * MS, 1000 * MS);

    @Test
    void nothingProcessedNeverCommits() {
        assertThat(policy.commitDue(1000 * MS)).isFalse();
        assertThat(policy.commitDue(5000 * MS)).isFalse();
    }

    @Test
    void aBurstIsCommittedOnceTheInputIsIdle() {
        policy.processed(1030 * MS);
        policy.processed(1031 * MS); // the burst's last command ends at 1031
        assertThat(policy.commitDue(1032 * MS)).as("idle 1 ms: more may come").isFalse();
        assertThat(policy.commitDue(1033 * MS)).as("idle 2 ms").isTrue();
        assertThat(policy.commitDue(1034 * MS)).as("committed, nothing new").isFalse();
    }

    @Test
    void idleCommitsAreSpacedApart() {
        policy.processed(1030 * MS);
        assertThat(policy.commitDue(1032 * MS)).isTrue(); // 32 ms after the start: spacing met
        policy.processed(1035 * MS);
        assertThat(policy.commitDue(1040 * MS)).as("8 ms after the last commit").isFalse();
        assertThat(policy.commitDue(1051 * MS)).as("19 ms after").isFalse();
        assertThat(policy.commitDue(1052 * MS)).as("20 ms after").isTrue();
    }

    @Test
    void aSteadyLoadIsCommittedEveryInterval() {
        long now = 1000 * MS;
        int commits = 0;
        // a command every millisecond for one second: never idle
        for (int ms = 1; ms <= 1000; ms++) {
            now = (1000 + ms) * MS;
            if (policy.commitDue(now)) {
                commits++;
                assertThat((now / MS - 1000) % 100)
                        .as("commit at %d ms", now / MS - 1000)
                        .isZero();
            }
            policy.processed(now);
        }
        assertThat(commits).isEqualTo(10); // at 100, 200, ... 1000 ms
    }

    @Test
    void settingsMustBePositive() {
        assertThatThrownBy(() -> new CommitPolicy(0, MS, MS, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CommitPolicy(MS, 0, MS, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CommitPolicy(MS, MS, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
