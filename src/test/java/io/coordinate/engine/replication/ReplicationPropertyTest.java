package io.coordinate.engine.replication;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.engine.state.model.Replica;
import io.coordinate.engine.state.model.ReplicaOutcome;
import io.coordinate.engine.state.model.ReplicationState;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.ValidateState;
import io.coordinate.engine.state.model.WorkUnitRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Random sequences of replica outcomes (seeded: every run is repeatable) against the rules of docs/replication.md
 * and BOINC's workunit states: eventually a canonical result or an error; assimilated exactly once; never two
 * replicas of a round on one host; never more than {@code max_total_results} replicas; nothing handed out once
 * a unit is decided; and views exact at any time (what a view shows before the time step is what the time step
 * then stores).
 */
class ReplicationPropertyTest {

    private static final int RUNS = 400;
    private static final int STEPS = 120;

    @Test
    void randomOutcomesKeepTheInvariants() {
        Map<String, Integer> seen = new java.util.TreeMap<>();
        for (long seed = 1; seed <= RUNS; seed++) {
            new Run(seed).go().forEach(what -> seen.merge(what, 1, Integer::sum));
        }
        // the runs reach every way a round can end, and late replicas
        assertThat(seen)
                .containsKeys(
                        "canonical",
                        "bit 1",
                        "bit 2",
                        "bit 4",
                        "bit 8",
                        "bit 16",
                        "late valid",
                        "late invalid",
                        "inconclusive");
    }

    private static final class Run {
        private final long seed;
        private final Random random;
        private final EngineHarness h;
        private final int maxTotal;
        private final int maxRetries;
        /** How much the replicas disagree: 1 = always "A", more = more often another result. */
        private final int kinds;

        private final List<String> workers = new ArrayList<>();
        private final List<String> units = new ArrayList<>();
        private final List<Attempt> open = new ArrayList<>();
        private final Map<String, Integer> replicasWhenDecided = new HashMap<>();
        private final Map<String, Set<String>> hostsOf = new HashMap<>();
        private int freshHosts;
        private final Set<String> lateOrInconclusive = new HashSet<>();

        Run(long seed) {
            this.seed = seed;
            this.random = new Random(seed);
            this.h = new EngineHarness(seed);
            int minQuorum = 1 + random.nextInt(3);
            int target = minQuorum + random.nextInt(2) + (minQuorum == 1 ? 1 : 0);
            int maxErrors = random.nextInt(4);
            int maxSuccess = minQuorum + random.nextInt(3);
            maxTotal = target + random.nextInt(5);
            maxRetries = random.nextInt(4) == 0 ? 1 + random.nextInt(target + 3) : 0;
            kinds = 1 + random.nextInt(4);
            h.setSpec(String.format(
                    "{\"name\":\"s\",\"min_quorum\":%d,\"target_nresults\":%d,\"max_error_results\":%d,"
                            + "\"max_total_results\":%d,\"max_success_results\":%d,\"delay_bound\":60,\"max_retries\":%d}",
                    minQuorum, target, maxErrors, maxTotal, maxSuccess, maxRetries));
            int hosts = 2 + random.nextInt(4);
            for (int host = 0; host < hosts; host++) {
                for (int i = 0, n = 1 + random.nextInt(2); i < n; i++) {
                    String worker = "w" + host + "-" + i;
                    h.send("worker_heartbeat", "worker", worker, "parent", "h" + host)
                            .ok();
                    workers.add(worker);
                }
            }
            for (int u = 0, n = 1 + random.nextInt(4); u < n; u++) {
                units.add("u" + u);
            }
            h.addUnits("s", units.toArray(String[]::new));
        }

        /** What the run's rounds came to: "canonical", "bit 2", "late valid", ... */
        List<String> go() {
            for (int step = 0; step < STEPS; step++) {
                int action = random.nextInt(20);
                if (action < 6) {
                    request(workers.get(random.nextInt(workers.size())), 1 + random.nextInt(2));
                } else if (action < 11) {
                    report("finish");
                } else if (action < 13) {
                    report("fail");
                } else if (action < 14) {
                    report("expire");
                } else if (action < 15) {
                    report("retry");
                } else if (action < 19) {
                    h.advanceSeconds(1 + random.nextInt(40));
                    punctuateComparingViews();
                } else if (random.nextInt(4) == 0) {
                    h.send(
                                    "cancel_work_units",
                                    "work_spec_name",
                                    "s",
                                    "query",
                                    EngineHarness.json(
                                            "{\"names\":[\"" + units.get(random.nextInt(units.size())) + "\"]}"))
                            .ok();
                }
                check();
            }
            // hosts come and go: fresh ones take what is left and agree, until every unit is decided
            for (int round = 0; round < 200 && !allDecided(); round++) {
                String worker = "fresh" + (++freshHosts);
                request(worker, units.size());
                while (!open.isEmpty()) {
                    Attempt attempt = open.remove(0);
                    h.send(
                            "finish_attempt",
                            "attempt_id",
                            attempt.id(),
                            "data",
                            EngineHarness.json("{\"result\":\"A\"}"));
                }
                h.advanceSeconds(61);
                punctuateComparingViews();
                check();
            }
            assertThat(allDecided())
                    .as("seed %d: every unit has a canonical result or an error", seed)
                    .isTrue();
            List<String> seen = new ArrayList<>();
            for (String unit : units) {
                assertThat(records(unit))
                        .as("seed %d: %s assimilated exactly once", seed, unit)
                        .isEqualTo(1);
                ReplicationState round = h.reader().units().get("ns", "s", unit).replication();
                if (round.canonical() != null) {
                    seen.add("canonical");
                }
                for (int bit = 1; bit <= 16; bit <<= 1) {
                    if ((round.errorMask() & bit) != 0) {
                        seen.add("bit " + bit);
                    }
                }
            }
            seen.addAll(lateOrInconclusive);
            return seen;
        }

        private void request(String worker, int count) {
            for (Attempt attempt : h.worker(worker).request("count", count)) {
                assertThat(replicasWhenDecided)
                        .as("seed %d: nothing handed out once %s is decided", seed, attempt.unit())
                        .doesNotContainKey(attempt.unit());
                open.add(attempt);
            }
        }

        private void report(String how) {
            if (open.isEmpty()) {
                return;
            }
            Attempt attempt = open.remove(random.nextInt(open.size()));
            switch (how) {
                case "finish" ->
                    h.send(
                            "finish_attempt",
                            "attempt_id",
                            attempt.id(),
                            "data",
                            EngineHarness.json("{\"result\":\""
                                    + (random.nextInt(kinds) == 0 ? "A" : "B" + random.nextInt(4)) + "\"}"));
                case "fail" -> h.send("fail_attempt", "attempt_id", attempt.id());
                case "expire" -> h.send("expire_attempt", "attempt_id", attempt.id());
                default -> h.send("retry_attempt", "attempt_id", attempt.id(), "delay", random.nextInt(10));
            }
        }

        /** The views before the time step must show what the time step then stores. */
        private void punctuateComparingViews() {
            Map<String, String> shown = new HashMap<>();
            for (String unit : units) {
                shown.put(unit, h.status("s", unit));
            }
            String counts = h.counts("s").toString();
            h.punctuate();
            for (String unit : units) {
                assertThat(h.reader().units().get("ns", "s", unit).status().wireName())
                        .as("seed %d: %s as shown before the time step", seed, unit)
                        .isEqualTo(shown.get(unit));
            }
            assertThat(h.reader().units().counts("ns", "s").toString().replace('=', ':'))
                    .isEqualTo(countsOf(counts));
        }

        private static String countsOf(String json) {
            ObjectNode node = (ObjectNode) EngineHarness.json(json);
            StringBuilder out = new StringBuilder("{");
            for (UnitStatus status : UnitStatus.values()) {
                if (node.has(status.wireName())) {
                    out.append(out.length() > 1 ? ", " : "")
                            .append(status.name())
                            .append(':')
                            .append(node.get(status.wireName()).asLong());
                }
            }
            return out.append('}').toString();
        }

        private void check() {
            for (String name : units) {
                WorkUnitRecord unit = h.reader().units().get("ns", "s", name);
                ReplicationState round = unit.replication();
                String what = "seed " + seed + ": " + name + " " + round;
                if (round == null) {
                    assertThat(unit.status()).as(what).isIn(UnitStatus.AVAILABLE, UnitStatus.DELAYED);
                    continue;
                }
                Set<String> hosts = new HashSet<>();
                for (Replica replica : round.replicas()) {
                    assertThat(hosts.add(replica.host()))
                            .as("%s: two replicas on one host", what)
                            .isTrue();
                }
                hostsOf.put(name, hosts);
                assertThat(round.replicas().size())
                        .as("%s: at most max_total_results", what)
                        .isLessThanOrEqualTo(maxTotal);
                if (maxRetries > 0) {
                    assertThat(round.replicas().size())
                            .as("%s: at most max_retries", what)
                            .isLessThanOrEqualTo(maxRetries);
                }
                if (round.decided()) {
                    assertThat(unit.status())
                            .as(what)
                            .isEqualTo(round.canonical() != null ? UnitStatus.FINISHED : UnitStatus.FAILED);
                    assertThat(round.assimilatedAt()).as(what).isNotNull();
                    assertThat(records(name)).as("%s: one record", what).isEqualTo(1);
                    Integer before = replicasWhenDecided.putIfAbsent(
                            name, round.replicas().size());
                    assertThat(round.replicas().size())
                            .as("%s: no replica after the decision", what)
                            .isEqualTo(before == null ? round.replicas().size() : before);
                    for (Replica replica : round.replicas()) {
                        assertThat(replica.outcome())
                                .as("%s: nothing runs for a decided round", what)
                                .isNotNull();
                        if (replica.outcome() == ReplicaOutcome.SUCCESS && late(name, round, replica)) {
                            lateOrInconclusive.add(
                                    "late " + replica.validateState().wireName());
                        }
                        if (round.canonical() != null && replica.outcome() == ReplicaOutcome.SUCCESS) {
                            assertThat(replica.validateState())
                                    .as(what)
                                    .isIn(ValidateState.VALID, ValidateState.INVALID);
                        }
                    }
                    if (round.canonical() != null) {
                        assertThat(round.replica(round.canonical()).validateState())
                                .as(what)
                                .isEqualTo(ValidateState.VALID);
                        assertThat(round.errorMask()).as(what).isZero();
                    }
                } else {
                    if (round.replicas().stream().anyMatch(r -> r.validateState() == ValidateState.INCONCLUSIVE)) {
                        lateOrInconclusive.add("inconclusive");
                    }
                    assertThat(unit.status())
                            .as(what)
                            .isIn(UnitStatus.AVAILABLE, UnitStatus.PENDING, UnitStatus.DELAYED);
                    assertThat(round.assimilatedAt()).as(what).isNull();
                    assertThat(records(name)).as(what).isZero();
                }
            }
        }

        /** The successes of each unit's round when it was first seen decided: any other success came late. */
        private final Map<String, Set<Long>> successesWhenDecided = new HashMap<>();

        private boolean late(String unit, ReplicationState round, Replica replica) {
            Set<Long> atDecision = successesWhenDecided.computeIfAbsent(unit, u -> {
                Set<Long> seqs = new HashSet<>();
                round.replicas().stream()
                        .filter(r -> r.outcome() == ReplicaOutcome.SUCCESS)
                        .forEach(r -> seqs.add(r.seq()));
                return seqs;
            });
            return !atDecision.contains(replica.seq());
        }

        private boolean allDecided() {
            for (String name : units) {
                ReplicationState round = h.reader().units().get("ns", "s", name).replication();
                if (round == null || !round.decided()) {
                    return false;
                }
            }
            return true;
        }

        private long records(String unit) {
            return h.results().stream()
                    .filter(r -> r.get("work_unit_name").asText().equals(unit))
                    .count();
        }
    }
}
