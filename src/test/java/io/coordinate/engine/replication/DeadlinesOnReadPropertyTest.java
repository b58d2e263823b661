package io.coordinate.engine.replication;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.Engine;
import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.engine.state.StateReader;
import io.coordinate.engine.state.db.DbState;
import io.coordinate.engine.state.db.SplitStore;
import io.coordinate.engine.state.model.Replica;
import io.coordinate.engine.state.model.ReplicaOutcome;
import io.coordinate.engine.state.model.ReplicationState;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.view.StateViews;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Random replicated histories (seeded: every run is repeatable) in which deadlines pile up between time steps: after
 * every step, each unit's view, as HTTP shows it now, must be the view after the time step at that same time. The
 * time step runs on a copy of the store, so that the history goes on with its deadlines still piled up; now and then
 * the real time step runs too, sometimes only part of its batch, and must leave every read as it was.
 *
 * <p>What only the time step writes is not shown before it runs: {@code assimilated_at} and an expired attempt's
 * {@code end_time} are null in a read and the time of the step after it.
 */
class DeadlinesOnReadPropertyTest {

    private static final int RUNS = 100;
    private static final int STEPS = 80;
    private static final List<String> SPECS = List.of("s", "t");

    @Test
    void everyReadShowsWhatTheNextTimeStepLeaves() {
        Map<String, Integer> seen = new TreeMap<>();
        for (long seed = 1; seed <= RUNS; seed++) {
            new Run(seed, seen).go();
        }
        // the histories reach the cases that matter: piled deadlines, rounds they decide (a canonical one after a
        // reload
        // that lowered min_quorum), replicas they leave unneeded
        assertThat(seen)
                .containsKeys(
                        "deadlines piled up",
                        "decided by a deadline",
                        "didnt_need past its deadline",
                        "mask 2 by a deadline",
                        "mask 8 by a deadline",
                        "canonical by a deadline",
                        "needs another replica after a deadline",
                        "partial time step");
    }

    private static final class Run {
        private final long seed;
        private final Random random;
        private final Map<String, Integer> seen;
        private final EngineHarness h;
        private final List<String> workers = new ArrayList<>();
        private final Map<String, List<String>> units = new TreeMap<>();
        private final List<Attempt> open = new ArrayList<>();

        Run(long seed, Map<String, Integer> seen) {
            this.seed = seed;
            this.random = new Random(seed);
            this.seen = seen;
            this.h = new EngineHarness(seed);
            for (String spec : SPECS) {
                h.setSpec(randomSpec(spec));
                List<String> names = new ArrayList<>();
                for (int u = 0, n = 1 + random.nextInt(3); u < n; u++) {
                    names.add(spec + u);
                }
                h.addUnits(spec, names.toArray(String[]::new));
                units.put(spec, names);
            }
            for (int host = 0, hosts = 2 + random.nextInt(4); host < hosts; host++) {
                for (int i = 0, n = 1 + random.nextInt(2); i < n; i++) {
                    String worker = "w" + host + "-" + i;
                    h.send("worker_heartbeat", "worker", worker, "parent", "h" + host)
                            .ok();
                    workers.add(worker);
                }
            }
        }

        /** Settings within the limits {@code set_work_spec} accepts, deadlines of a few seconds. */
        private String randomSpec(String name) {
            int minQuorum = 1 + random.nextInt(3);
            int target = minQuorum + random.nextInt(2) + (minQuorum == 1 ? 1 : 0);
            int maxErrors = random.nextInt(3);
            int maxSuccess = minQuorum + random.nextInt(3);
            int maxTotal = target + random.nextInt(3);
            int maxRetries = random.nextInt(5) == 0 ? 1 + random.nextInt(target + 2) : 0;
            String delayBound = random.nextInt(5) == 0 ? "" : ",\"delay_bound\":" + (2 + random.nextInt(5)) / 2.0;
            return String.format(
                    "{\"name\":\"%s\",\"min_quorum\":%d,\"target_nresults\":%d,\"max_error_results\":%d,"
                            + "\"max_total_results\":%d,\"max_success_results\":%d,\"max_retries\":%d%s}",
                    name, minQuorum, target, maxErrors, maxTotal, maxSuccess, maxRetries, delayBound);
        }

        void go() {
            for (int step = 0; step < STEPS; step++) {
                int action = random.nextInt(100);
                if (action < 35) {
                    h.advance(Duration.ofMillis(100 + random.nextInt(2500)));
                } else if (action < 55) {
                    request();
                } else if (action < 68) {
                    report("finish");
                } else if (action < 72) {
                    report("fail");
                } else if (action < 74) {
                    report("expire");
                } else if (action < 78) {
                    report("retry");
                } else if (action < 84) {
                    report("renew");
                } else if (action < 92) {
                    punctuate();
                } else if (action < 94) {
                    h.send("cancel_work_units", "work_spec_name", "s", "query", names(randomUnit("s")));
                } else if (action < 96) {
                    String spec = SPECS.get(random.nextInt(SPECS.size()));
                    h.reset(spec, names(randomUnit(spec)).toString());
                } else if (action < 98) {
                    String spec = SPECS.get(random.nextInt(SPECS.size()));
                    h.addUnits(spec, randomUnit(spec));
                } else {
                    h.setSpec(randomSpec(SPECS.get(random.nextInt(SPECS.size())))); // a round under way follows it
                }
                compareWithTheNextTimeStep(step);
            }
        }

        private void request() {
            String worker = workers.get(random.nextInt(workers.size()));
            open.addAll(h.worker(worker).request("count", 1 + random.nextInt(3), "lifetime", 1 + random.nextInt(4)));
        }

        private void report(String how) {
            if (open.isEmpty()) {
                return;
            }
            Attempt attempt = open.get(random.nextInt(open.size()));
            if (!how.equals("renew")) {
                open.remove(attempt);
            }
            // a report of a replica that timed out, or of a superseded one, is refused: the history goes on
            switch (how) {
                case "finish" ->
                    h.send(
                            "finish_attempt",
                            "attempt_id",
                            attempt.id(),
                            "data",
                            EngineHarness.json("{\"result\":\"" + (random.nextInt(3) == 0 ? "B" : "A") + "\"}"));
                case "fail" -> h.send("fail_attempt", "attempt_id", attempt.id());
                case "expire" -> h.send("expire_attempt", "attempt_id", attempt.id());
                case "retry" -> h.send("retry_attempt", "attempt_id", attempt.id(), "delay", random.nextInt(3));
                default -> h.send("renew_attempt", "attempt_id", attempt.id(), "extend", 1 + random.nextInt(3));
            }
        }

        /** The real time step, now and then only part of its batch: what a read shows must not change. */
        private void punctuate() {
            Map<String, String> before = views(h.reader());
            if (random.nextBoolean()) {
                h.engine().advanceTime(h.now(), 1);
                seen.merge("partial time step", 1, Integer::sum);
            } else {
                h.punctuate();
            }
            assertSame(before, views(h.reader()), "seed " + seed + ", a time step at " + h.nowText());
        }

        private void compareWithTheNextTimeStep(int step) {
            StateReader state = h.reader();
            Map<String, String> read = views(state);
            SplitStore copy = h.storeCopy();
            new Engine(copy, new Random(seed)).advanceTime(h.now(), Integer.MAX_VALUE);
            StateReader stepped = DbState.reader(copy);
            assertSame(read, views(stepped), "seed " + seed + ", step " + step + ", at " + h.nowText());
            note(state, stepped);
        }

        /** Every unit's view and every spec's counts, at the harness's time. */
        private Map<String, String> views(StateReader state) {
            StateViews views = new StateViews(state, "ns", h.now());
            Map<String, String> all = new TreeMap<>();
            for (String spec : SPECS) {
                all.put(spec + " counts", StateViews.counts(views.counts(spec)).toString());
                for (WorkUnitRecord unit : state.units().list("ns", spec, null, Integer.MAX_VALUE)) {
                    all.put(spec + "/" + unit.name(), unit(views.unit(unit)).toString());
                }
            }
            return all;
        }

        /** A unit's view with what only the time step writes at its own time taken out. */
        private JsonNode unit(ObjectNode view) {
            String now = h.nowText();
            JsonNode replication = view.get("replication");
            if (replication != null
                    && now.equals(replication.path("assimilated_at").asText(null))) {
                ((ObjectNode) replication).putNull("assimilated_at");
            }
            for (JsonNode attempt : view.get("attempts")) {
                if (now.equals(attempt.path("end_time").asText(null))
                        && attempt.get("status").asText().equals("expired")) {
                    ((ObjectNode) attempt).putNull("end_time");
                }
            }
            return view;
        }

        private static void assertSame(Map<String, String> read, Map<String, String> stepped, String what) {
            assertThat(stepped.keySet()).as("%s: the units", what).isEqualTo(read.keySet());
            read.forEach((key, view) ->
                    assertThat(stepped.get(key)).as("%s: %s", what, key).isEqualTo(view));
        }

        /** What the time step did to each round, for the run's coverage. */
        private void note(StateReader before, StateReader after) {
            for (String spec : SPECS) {
                for (WorkUnitRecord unit : before.units().list("ns", spec, null, Integer.MAX_VALUE)) {
                    ReplicationState round = unit.replication();
                    if (round == null || round.decided()) {
                        continue;
                    }
                    List<Replica> overdue = round.replicas().stream()
                            .filter(r -> r.running() && r.deadline() < h.now())
                            .toList();
                    if (overdue.size() > 1) {
                        seen.merge("deadlines piled up", 1, Integer::sum);
                    }
                    ReplicationState next =
                            after.units().get("ns", spec, unit.name()).replication();
                    if (overdue.isEmpty() || next == null) {
                        continue;
                    }
                    if (next.decided()) {
                        seen.merge("decided by a deadline", 1, Integer::sum);
                        String how = next.canonical() != null ? "canonical" : "mask " + next.errorMask();
                        seen.merge(how + " by a deadline", 1, Integer::sum);
                        for (Replica replica : overdue) {
                            if (next.replica(replica.seq()).outcome() == ReplicaOutcome.DIDNT_NEED) {
                                seen.merge("didnt_need past its deadline", 1, Integer::sum);
                            }
                        }
                    } else if (after.units().get("ns", spec, unit.name()).status() == UnitStatus.AVAILABLE) {
                        seen.merge("needs another replica after a deadline", 1, Integer::sum);
                    }
                }
            }
        }

        private String randomUnit(String spec) {
            List<String> names = units.get(spec);
            return names.get(random.nextInt(names.size()));
        }

        private static JsonNode names(String unit) {
            return EngineHarness.json("{\"names\":[\"" + unit + "\"]}");
        }
    }
}
