package io.coordinate.engine.replication;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.replication.Replicas.replicaLines;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.protocol.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Replicas of one unit go to distinct hosts (docs/replication.md#replicas-and-hosts): a host is a worker's top-level
 * ancestor by {@code parent}; a worker without a parent is its own host. A request skips the units its host has,
 * without scanning the spec: it passes over at most {@code Replication.MAX_UNITS_SKIPPED} of them.
 */
class HostsTest {

    private final EngineHarness h = new EngineHarness();

    @Test
    void workersOfOneHostNeverGetTwoReplicasOfOneUnit() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2}");
        h.addUnits("s", "u1", "u2");
        Replicas.workers(h, "w1a", "h1", "w1b", "h1", "w2", "h2");

        assertThat(h.worker("w1a").requestOne().unit()).isEqualTo("u1");
        assertThat(h.worker("w1b").requestOne().unit()).as("h1 has u1 already").isEqualTo("u2");
        List<Attempt> both = h.worker("w2").request("count", 2);

        assertThat(both).extracting(Attempt::unit).containsExactly("u1", "u2");
        assertThat(replicaLines(h, "s", "u1")).containsExactly("1 w1a h1 running init", "3 w2 h2 running init");
        assertThat(replicaLines(h, "s", "u2")).containsExactly("2 w1b h1 running init", "4 w2 h2 running init");
        assertJson(h.counts("s"), "{\"pending\":2}");
    }

    @Test
    void theHostIsTheTopLevelAncestorAndAWorkerWithoutParentIsItsOwnHost() {
        h.setSpec("{\"name\":\"s\",\"target_nresults\":3}");
        h.addUnits("s", "u");
        Replicas.workers(h, "rack", "dc", "w1", "rack", "w2", null);
        h.send("worker_heartbeat", "worker", "dc").ok();

        h.worker("w1").requestOne();
        h.worker("dc").requestNone(); // the same host as w1
        h.worker("w2").requestOne();
        h.worker("never-seen").requestOne(); // created by its request: its own host

        assertThat(replicaLines(h, "s", "u"))
                .containsExactly(
                        "1 w1 dc running init", "2 w2 w2 running init", "3 never-seen never-seen running init");
        assertThat(h.attempt("1").get("replica").get("host").asText()).isEqualTo("dc");
    }

    @Test
    void oneRequestOfManyGetsOneReplicaOfEachUnit() {
        h.setSpec("{\"name\":\"s\",\"target_nresults\":3}");
        h.addUnits("s", "a", "b");

        assertThat(h.worker("w").request("count", 5)).extracting(Attempt::unit).containsExactly("a", "b");
        assertJson(h.counts("s"), "{\"available\":2}");
    }

    @Test
    void aHostAheadOfTheOthersPassesOverAtMostMaxUnitsSkipped() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2}");
        ArrayNode units = Json.MAPPER.createArrayNode();
        for (int i = 0; i < 1002; i++) {
            units.addObject().put("name", String.format("u%04d", i));
        }
        h.send("add_work_units", "work_spec_name", "s", "work_units", units).ok();
        assertThat(h.worker("fast").request("count", 1000)).hasSize(1000);

        // 1000 units of the index have a replica on this host: the 1001st is the last one a request may reach
        assertThat(h.worker("fast").requestOne().unit()).isEqualTo("u1000");
        h.worker("fast").requestNone(); // u1001 is 1001 units in: out of reach until others catch up

        assertThat(h.worker("slow").requestOne().unit()).isEqualTo("u0000");
        assertThat(h.status("s", "u0000")).isEqualTo("pending");
        assertThat(h.worker("fast").requestOne().unit()).isEqualTo("u1001");
        assertThat(Replication.MAX_UNITS_SKIPPED).isEqualTo(1000);
    }

    @Test
    void aRequestMovesOnToAnotherSpecWhenTheReplicatedOneHasNothingForItsHost() {
        h.setSpec("{\"name\":\"rep\",\"min_quorum\":2,\"priority\":10}");
        h.setSpec("{\"name\":\"plain\"}");
        h.addUnits("rep", "r");
        h.addUnits("plain", "p");

        assertThat(h.worker("w1").requestOne().unit()).isEqualTo("r");
        assertThat(h.worker("w1").requestOne().unit()).isEqualTo("p");
        assertThat(h.worker("w2").requestOne().unit()).isEqualTo("r");
    }
}
