package io.coordinate.engine;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Conformance scenarios 1–5, namespaces (docs/architecture.md#conformance-tests). */
class NamespaceConformanceTest {

    private final EngineHarness h = new EngineHarness();

    @Test
    @DisplayName("1. A namespace is created by its first command and listed afterwards")
    void scenario01_namespaceCreatedByFirstCommand() {
        assertThat(h.namespaces()).isEmpty();

        h.namespace("first").setSpec("{\"name\":\"spec\"}");
        assertThat(h.namespaces()).containsExactly("first");

        h.namespace("second").send("worker_heartbeat", "worker", "w").ok();
        assertThat(h.namespaces()).containsExactly("first", "second");
    }

    @Test
    @DisplayName("2. Spec create, look up, list, delete; a second delete gets no_such_work_spec")
    void scenario02_specCreateDestroy() {
        assertThat(h.spec("spec")).isNull();
        assertThat(h.specNames()).isEmpty();

        assertJson(h.setSpec("{\"name\":\"spec\",\"min_gb\":0.1}").get("data"), "{\"name\":\"spec\",\"min_gb\":0.1}");
        assertThat(h.spec("spec").get("name").asText()).isEqualTo("spec");
        // 0.1 stays the number it was: exactly equal, not merely close
        assertThat(h.spec("spec").get("data")).isEqualTo(json("{\"name\":\"spec\",\"min_gb\":0.1}"));
        assertThat(h.specNames()).containsExactly("spec");

        assertJson(h.send("delete_work_spec", "work_spec_name", "spec").ok(), "{\"deleted\":\"spec\"}");
        assertThat(h.spec("spec")).isNull();
        assertThat(h.specNames()).isEmpty();

        assertThat(h.send("delete_work_spec", "work_spec_name", "spec").errorCode())
                .isEqualTo("no_such_work_spec");
    }

    @Test
    @DisplayName("3. set_work_spec {} → no_work_spec_name; {\"name\": 4} → bad_work_spec_name")
    void scenario03_specErrors() {
        assertThat(h.send("set_work_spec", "work_spec", json("{}")).errorCode()).isEqualTo("no_work_spec_name");
        assertThat(h.send("set_work_spec", "work_spec", json("{\"name\":4}")).errorCode())
                .isEqualTo("bad_work_spec_name");
        assertThat(h.specNames()).isEmpty();
    }

    @Test
    @DisplayName("4. Two specs: create, list both, delete one, the other still works")
    void scenario04_twoSpecs() {
        h.setSpec("{\"name\":\"spec1\",\"min_gb\":1}");
        assertThat(h.specNames()).containsExactly("spec1");
        h.setSpec("{\"name\":\"spec2\",\"min_gb\":2}");
        assertThat(h.specNames()).containsExactlyInAnyOrder("spec1", "spec2");
        assertThat(h.spec("spec1")).isNotNull();
        assertThat(h.spec("spec2")).isNotNull();

        h.send("delete_work_spec", "work_spec_name", "spec1").ok();
        assertThat(h.specNames()).containsExactly("spec2");
        assertThat(h.spec("spec1")).isNull();
        assertJson(h.spec("spec2").get("data"), "{\"name\":\"spec2\",\"min_gb\":2}");
        h.addUnits("spec2", "u");
        assertJson(h.counts("spec2"), "{\"available\":1}");

        h.send("delete_work_spec", "work_spec_name", "spec2").ok();
        assertThat(h.specNames()).isEmpty();
        assertThat(h.spec("spec1")).isNull();
        assertThat(h.spec("spec2")).isNull();
    }

    @Test
    @DisplayName("5. destroy_namespace removes everything; the same name is then a fresh, empty namespace")
    void scenario05_destroyNamespace() {
        h.namespace("doomed").setSpec("{\"name\":\"spec\",\"min_gb\":1}");
        h.addUnits("spec", "u1", "u2");
        h.requestOne();
        h.send("worker_heartbeat", "worker", "other").ok();
        h.namespace("kept").setSpec("{\"name\":\"spec\"}");
        h.namespace("doomed");

        assertJson(h.send("destroy_namespace").ok(), "{\"destroyed\":\"doomed\"}");
        assertThat(h.namespaces()).containsExactly("kept");
        assertThat(h.send("set_work_spec_meta", "work_spec_name", "spec", "meta", json("{}"))
                        .errorCode())
                .isEqualTo("no_such_work_spec");
        assertThat(h.send("add_work_units", "work_spec_name", "spec", "work_units", json("[{\"name\":\"foo\"}]"))
                        .errorCode())
                .isEqualTo("no_such_work_spec");
        assertThat(h.namespaces()).as("rejected commands create nothing").containsExactly("kept");

        h.setSpec("{\"name\":\"other\"}");
        assertThat(h.namespaces()).containsExactly("doomed", "kept");
        assertThat(h.specNames()).containsExactly("other");
        assertThat(h.spec("spec")).isNull();
        assertThat(h.workerView("worker")).isNull();
        assertThat(h.workerView("other")).isNull();
        assertThat(h.namespace("kept").specNames()).containsExactly("spec");
    }
}
