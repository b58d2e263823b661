package io.coordinate.metrics;

import static io.coordinate.metrics.EngineDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.storage.ReadableKeyValueStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The gauges as read from a store the real engine wrote, at a time the test sets. */
class QueueGaugesTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final AtomicLong clock = new AtomicLong(T0);

    private QueueMetrics metrics = new QueueMetrics(registry, 200);
    private EngineDriver engine = new EngineDriver(metrics);

    private QueueGauges gauges() {
        List<ReadableKeyValueStore> stores = List.of(engine.store);
        return new QueueGauges(registry, metrics, () -> stores, clock::get, 1000);
    }

    private Double gauge(String name, String... tags) {
        Gauge gauge = registry.find(name).tags(tags).gauge();
        return gauge == null ? null : gauge.value();
    }

    private Double units(String ns, String spec, String status) {
        return gauge(QueueGauges.UNITS, "namespace", ns, "work_spec", spec, "status", status);
    }

    @Test
    void unitsByStatusRunningAttemptsAndActiveWorkersAsOfNow() {
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'s'}}");
        engine.apply(
                T0,
                "{'command':'add_work_units','namespace':'n','work_spec_name':'s','work_units':["
                        + "{'name':'u1'},{'name':'u2'},{'name':'u3'},{'name':'u4','delay':60}]}");
        engine.apply(T0, "{'command':'worker_heartbeat','namespace':'n','worker':'w1'}");
        engine.apply(T0, "{'command':'worker_heartbeat','namespace':'n','worker':'w2'}");
        engine.apply(T0, "{'command':'deactivate_worker','namespace':'n','worker':'w2'}");
        engine.apply(T0, "{'command':'request_attempts','namespace':'n','worker':'w1','count':1,'lifetime':10}");
        engine.apply(T0, "{'command':'request_attempts','namespace':'n','worker':'w1','count':1,'lifetime':100}");
        QueueGauges gauges = gauges();

        clock.set(T0 + 5000);
        gauges.refresh();
        assertThat(units("n", "s", "available")).isEqualTo(1);
        assertThat(units("n", "s", "pending")).isEqualTo(2);
        assertThat(units("n", "s", "delayed")).isEqualTo(1);
        assertThat(units("n", "s", "finished")).isEqualTo(0);
        assertThat(units("n", "s", "failed")).isEqualTo(0);
        assertThat(gauge(QueueGauges.RUNNING_ATTEMPTS, "namespace", "n", "work_spec", "s"))
                .isEqualTo(2);
        assertThat(gauge(QueueGauges.ACTIVE_WORKERS, "namespace", "n")).isEqualTo(1);
        assertThat(gauge(QueueGauges.OLDEST_AVAILABLE_AGE, "namespace", "n", "work_spec", "s"))
                .isEqualTo(5.0); // u3

        // 61 s on, with no time step run: the 10 s attempt counts as expired and u4 as released, as the summary shows
        clock.set(T0 + 61_000);
        gauges.refresh();
        assertThat(units("n", "s", "available")).isEqualTo(3);
        assertThat(units("n", "s", "pending")).isEqualTo(1);
        assertThat(units("n", "s", "delayed")).isEqualTo(0);
        assertThat(gauge(QueueGauges.RUNNING_ATTEMPTS, "namespace", "n", "work_spec", "s"))
                .isEqualTo(1);
        assertThat(gauge(QueueGauges.OLDEST_AVAILABLE_AGE, "namespace", "n", "work_spec", "s"))
                .isEqualTo(61.0); // u3
    }

    @Test
    void theRateLimitTokensOfALimitedSpecAsOfNow() {
        engine.apply(
                T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'s','rate_limit':{'max':20}}}");
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'plain'}}");
        engine.apply(
                T0,
                "{'command':'add_work_units','namespace':'n','work_spec_name':'s','work_units':["
                        + "{'name':'u1'},{'name':'u2'},{'name':'u3'}]}");
        engine.apply(T0, "{'command':'request_attempts','namespace':'n','worker':'w1','count':3}");
        QueueGauges gauges = gauges();

        gauges.refresh();
        assertThat(gauge(QueueGauges.RATE_LIMIT_TOKENS, "namespace", "n", "work_spec", "s"))
                .isEqualTo(17);
        clock.set(T0 + 100);
        gauges.refresh();
        assertThat(registry.scrape().lines())
                .contains("coordinate_rate_limit_tokens{namespace=\"n\",work_spec=\"s\"} 19.0");
        assertThat(registry.find(QueueGauges.RATE_LIMIT_TOKENS)
                        .tags("work_spec", "plain")
                        .gauge())
                .isNull();
    }

    @Test
    void theGroupsAtTheirCapOfACappingSpec() {
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'s','group_max_running':1}}");
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'plain'}}");
        engine.apply(
                T0,
                "{'command':'add_work_units','namespace':'n','work_spec_name':'s','work_units':["
                        + "{'name':'a1','group':'a'},{'name':'a2','group':'a'},{'name':'b1','group':'b'},"
                        + "{'name':'c1','group':'c'}]}");
        engine.apply(T0, "{'command':'request_attempts','namespace':'n','worker':'w1','count':2}");
        QueueGauges gauges = gauges();

        gauges.refresh();
        assertThat(registry.scrape().lines()).contains("coordinate_groups_at_cap{namespace=\"n\",work_spec=\"s\"} 2.0");
        engine.apply(T0, "{'command':'request_attempts','namespace':'n','worker':'w1','count':5}");
        gauges.refresh();
        assertThat(gauge(QueueGauges.GROUPS_AT_CAP, "namespace", "n", "work_spec", "s"))
                .isEqualTo(3);
        assertThat(registry.find(QueueGauges.GROUPS_AT_CAP)
                        .tags("work_spec", "plain")
                        .gauge())
                .isNull();
    }

    @Test
    void scrapesCloserThanTheIntervalShowTheLastRead() {
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'s'}}");
        QueueGauges gauges = gauges();
        gauges.refreshIfDue();
        engine.apply(
                T0, "{'command':'add_work_units','namespace':'n','work_spec_name':'s','work_units':[{'name':'u'}]}");
        clock.set(T0 + 999);
        gauges.refreshIfDue();
        assertThat(units("n", "s", "available")).isEqualTo(0);
        clock.set(T0 + 1000);
        gauges.refreshIfDue();
        assertThat(units("n", "s", "available")).isEqualTo(1);
    }

    @Test
    void theOldestAvailableAgeIsThatOfTheSpecsLongestWaitingUnit() {
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'s'}}");
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'empty'}}");
        engine.apply(
                T0, "{'command':'add_work_units','namespace':'n','work_spec_name':'s','work_units':[{'name':'a'}]}");
        engine.apply(
                T0 + 40_000,
                "{'command':'add_work_units','namespace':'n','work_spec_name':'s','work_units':[{'name':'b'}]}");
        QueueGauges gauges = gauges();
        clock.set(T0 + 90_500);
        gauges.refresh();
        assertThat(gauge(QueueGauges.OLDEST_AVAILABLE_AGE, "namespace", "n", "work_spec", "s"))
                .isEqualTo(90.5);
        assertThat(registry.find(QueueGauges.OLDEST_AVAILABLE_AGE)
                        .tags("work_spec", "empty")
                        .gauge())
                .isNull();
        assertThat(registry.scrape().lines())
                .contains("coordinate_oldest_available_age_seconds{namespace=\"n\",work_spec=\"s\"} 90.5");

        engine.apply(T0 + 90_500, "{'command':'request_attempts','namespace':'n','worker':'w','count':1}"); // takes a
        gauges.refresh();
        assertThat(gauge(QueueGauges.OLDEST_AVAILABLE_AGE, "namespace", "n", "work_spec", "s"))
                .isEqualTo(50.5);
    }

    @Test
    void seriesOfASpecThatWentAwayGo() {
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'s'}}");
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'t'}}");
        engine.apply(
                T0, "{'command':'add_work_units','namespace':'n','work_spec_name':'s','work_units':[{'name':'u'}]}");
        QueueGauges gauges = gauges();
        gauges.refresh();
        assertThat(units("n", "s", "available")).isEqualTo(1);
        assertThat(registry.find("coordinate.units.added")
                        .tags("work_spec", "s")
                        .counter())
                .isNotNull();

        engine.apply(T0, "{'command':'delete_work_spec','namespace':'n','work_spec_name':'s'}");
        gauges.refresh();
        assertThat(registry.find(QueueGauges.UNITS).tags("work_spec", "s").gauges())
                .isEmpty();
        assertThat(registry.find(QueueGauges.RUNNING_ATTEMPTS)
                        .tags("work_spec", "s")
                        .gauges())
                .isEmpty();
        assertThat(registry.find("coordinate.units.added")
                        .tags("work_spec", "s")
                        .counters())
                .isEmpty();
        assertThat(units("n", "t", "available")).isEqualTo(0);
        assertThat(metrics.throughput("n", List.of("s"), T0)
                        .get("work_specs")
                        .get(0)
                        .get("added")
                        .get(14)
                        .asLong())
                .isZero();
    }

    @Test
    void beyondTheCapSpecsAreSummedAsOther() {
        metrics = new QueueMetrics(registry, 2);
        engine = new EngineDriver(metrics);
        for (String spec : List.of("a", "b", "c", "d")) {
            engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'" + spec + "'}}");
        }
        engine.apply(
                T0, "{'command':'add_work_units','namespace':'n','work_spec_name':'a','work_units':[{'name':'1'}]}");
        engine.apply(
                T0,
                "{'command':'add_work_units','namespace':'n','work_spec_name':'b','work_units':[{'name':'1'},"
                        + "{'name':'2'}]}");
        engine.apply(
                T0,
                "{'command':'add_work_units','namespace':'n','work_spec_name':'c','work_units':[{'name':'1'},"
                        + "{'name':'2'},{'name':'3'}]}");
        engine.apply(
                T0,
                "{'command':'add_work_units','namespace':'n','work_spec_name':'d','work_units':[{'name':'1'},"
                        + "{'name':'2'},{'name':'3'},{'name':'4'}]}");
        QueueGauges gauges = gauges();
        gauges.refresh();

        assertThat(registry.get("coordinate.units.added")
                        .tags("work_spec", "a")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("coordinate.units.added")
                        .tags("work_spec", "b")
                        .counter()
                        .count())
                .isEqualTo(2);
        assertThat(registry.get("coordinate.units.added")
                        .tags("namespace", "n", "work_spec", "_other")
                        .counter()
                        .count())
                .isEqualTo(7);
        assertThat(registry.find("coordinate.units.added").counters()).hasSize(3);
        assertThat(units("n", "a", "available")).isEqualTo(1);
        assertThat(units("n", "b", "available")).isEqualTo(2);
        assertThat(units("n", "_other", "available")).isEqualTo(7);
        assertThat(registry.find(QueueGauges.UNITS).tags("status", "available").gauges())
                .hasSize(3);
        // the window stays per spec: it is memory, not series
        assertThat(metrics.throughput("n", List.of("d"), T0)
                        .get("work_specs")
                        .get(0)
                        .get("added")
                        .get(14)
                        .asLong())
                .isEqualTo(4);

        // a labelled spec that goes frees its place for the next new spec; those summed already stay summed
        engine.apply(T0, "{'command':'delete_work_spec','namespace':'n','work_spec_name':'a'}");
        gauges.refresh();
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'e'}}");
        engine.apply(
                T0, "{'command':'add_work_units','namespace':'n','work_spec_name':'e','work_units':[{'name':'1'}]}");
        gauges.refresh();
        assertThat(registry.get("coordinate.units.added")
                        .tags("work_spec", "e")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(units("n", "e", "available")).isEqualTo(1);
        assertThat(units("n", "_other", "available")).isEqualTo(7);
        assertThat(registry.find(QueueGauges.UNITS).tags("work_spec", "a").gauges())
                .isEmpty();
    }

    private Double workers(String ns) {
        return gauge(QueueGauges.ACTIVE_WORKERS, "namespace", ns);
    }

    @Test
    void beyondTheNamespaceCapNamespacesAreSummedAsOther() {
        metrics = new QueueMetrics(registry, 200, 2);
        engine = new EngineDriver(metrics);
        for (String ns : List.of("a", "b", "c", "d")) {
            engine.apply(T0, "{'command':'set_work_spec','namespace':'" + ns + "','work_spec':{'name':'s'}}");
            engine.apply(
                    T0,
                    "{'command':'add_work_units','namespace':'" + ns + "','work_spec_name':'s','work_units':["
                            + "{'name':'1'},{'name':'2'}]}");
            engine.apply(T0, "{'command':'request_attempts','namespace':'" + ns + "','worker':'w','count':1}");
        }
        engine.apply(T0, "{'command':'worker_heartbeat','namespace':'_other','worker':'w'}"); // takes no place
        QueueGauges gauges = gauges();
        clock.set(T0 + 3000);
        gauges.refresh();

        assertThat(units("a", "s", "available")).isEqualTo(1);
        assertThat(units("b", "s", "pending")).isEqualTo(1);
        assertThat(units("_other", "_other", "available")).isEqualTo(2);
        assertThat(units("_other", "_other", "pending")).isEqualTo(2);
        assertThat(gauge(QueueGauges.RUNNING_ATTEMPTS, "namespace", "_other", "work_spec", "_other"))
                .isEqualTo(2);
        assertThat(gauge(QueueGauges.OLDEST_AVAILABLE_AGE, "namespace", "_other", "work_spec", "_other"))
                .isEqualTo(3.0);
        assertThat(workers("a")).isEqualTo(1);
        assertThat(workers("_other")).isEqualTo(3);
        assertThat(registry.find(QueueGauges.ACTIVE_WORKERS).gauges()).hasSize(3);
        assertThat(registry.get("coordinate.units.added")
                        .tags("namespace", "_other", "work_spec", "_other")
                        .counter()
                        .count())
                .isEqualTo(4);
        assertThat(registry.find("coordinate.units.added").counters()).hasSize(3);
        assertThat(metrics.throughput("c", List.of("s"), T0)
                        .get("work_specs")
                        .get(0)
                        .get("added")
                        .get(14)
                        .asLong())
                .as("the window stays per spec")
                .isEqualTo(2);

        // a labelled namespace that goes frees its place for the next new one; those summed already stay summed
        engine.apply(T0, "{'command':'destroy_namespace','namespace':'a'}");
        gauges.refresh();
        assertThat(registry.find(QueueGauges.UNITS).tags("namespace", "a").gauges())
                .isEmpty();
        assertThat(workers("a")).isNull();
        engine.apply(T0, "{'command':'worker_heartbeat','namespace':'e','worker':'w'}");
        engine.apply(T0, "{'command':'destroy_namespace','namespace':'d'}");
        gauges.refresh();
        assertThat(workers("e")).isEqualTo(1);
        assertThat(workers("_other")).isEqualTo(2);
        assertThat(units("_other", "_other", "available")).isEqualTo(1);
        assertThat(registry.get("coordinate.units.added")
                        .tags("namespace", "_other", "work_spec", "_other")
                        .counter()
                        .count())
                .as("the counter stays while a namespace it counts is here")
                .isEqualTo(4);
    }

    @Test
    void theNamespacesPastTheCapAreReadInTurnsTheLongestUnreadFirst() {
        metrics = new QueueMetrics(registry, 200, 1);
        engine = new EngineDriver(metrics);
        for (String ns : List.of("a", "b", "c", "d", "e")) {
            engine.apply(T0, "{'command':'worker_heartbeat','namespace':'" + ns + "','worker':'w'}");
        }
        List<ReadableKeyValueStore> stores = List.of(engine.store);
        QueueGauges gauges = new QueueGauges(registry, metrics, () -> stores, clock::get, 1000, 2);
        gauges.refresh(); // reads a, and b and c of the four past the cap
        assertThat(workers("a")).isEqualTo(1);
        assertThat(workers("_other")).isEqualTo(2);

        engine.apply(T0, "{'command':'deactivate_worker','namespace':'b','worker':'w'}");
        engine.apply(T0, "{'command':'deactivate_worker','namespace':'d','worker':'w'}");
        gauges.refresh(); // d and e, never read: b and c count as last read
        assertThat(workers("_other")).isEqualTo(3);
        gauges.refresh(); // b and c
        assertThat(workers("_other")).isEqualTo(2);
        engine.apply(T0, "{'command':'destroy_namespace','namespace':'e'}");
        gauges.refresh(); // d, and b: e is gone
        assertThat(workers("_other")).isEqualTo(1);
    }

    /**
     * Each namespace had series of every metric of its own, so a scrape grew with the namespaces. Now 50 get labels and
     * the rest are one sum, of which each read takes a share.
     */
    @Test
    void tenThousandNamespacesGiveABoundedNumberOfSeries() {
        metrics = new QueueMetrics(registry, MetricsSettings.DEFAULT_MAX_SPECS, MetricsSettings.DEFAULT_MAX_NAMESPACES);
        engine = new EngineDriver(metrics);
        for (int i = 0; i < 10_000; i++) {
            String ns = String.format("ns-%05d", i);
            engine.apply(T0, "{'command':'set_work_spec','namespace':'" + ns + "','work_spec':{'name':'s'}}");
            engine.apply(
                    T0,
                    "{'command':'add_work_units','namespace':'" + ns + "','work_spec_name':'s','work_units':["
                            + "{'name':'1'},{'name':'2'}]}");
            engine.apply(T0, "{'command':'request_attempts','namespace':'" + ns + "','worker':'w','count':1}");
        }
        List<ReadableKeyValueStore> stores = List.of(engine.store);
        QueueGauges gauges = new QueueGauges(registry, metrics, () -> stores, clock::get, 1000, 2500);
        gauges.refresh();

        String scrape = registry.scrape();
        // 50 namespaces' specs and the one _other sum: 11 counters, 8 unit statuses, running, oldest; and 51 worker
        // counts
        assertThat(namespaceSeries(scrape)).isEqualTo(51 * 21 + 51);
        assertThat(scrape.length()).isLessThan(150_000);
        assertThat(units("ns-00049", "s", "available")).isEqualTo(1);
        assertThat(units("_other", "_other", "available")).isEqualTo(2500);
        assertThat(registry.get("coordinate.units.added")
                        .tags("namespace", "_other", "work_spec", "_other")
                        .counter()
                        .count())
                .isEqualTo(19_900);

        for (int i = 0; i < 3; i++) {
            gauges.refresh();
        }
        assertThat(units("_other", "_other", "available")).isEqualTo(9950);
        assertThat(units("_other", "_other", "pending")).isEqualTo(9950);
        assertThat(gauge(QueueGauges.RUNNING_ATTEMPTS, "namespace", "_other", "work_spec", "_other"))
                .isEqualTo(9950);
        assertThat(workers("_other")).isEqualTo(9950);
        assertThat(namespaceSeries(registry.scrape())).isEqualTo(51 * 21 + 51);
    }

    private static long namespaceSeries(String scrape) {
        return scrape.lines()
                .filter(line -> line.startsWith("coordinate_") && line.contains("namespace=\""))
                .count();
    }
}
