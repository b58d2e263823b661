package io.coordinate.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import io.javalin.router.JavalinDefaultRouting;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code GET /api/namespaces/{ns}/work-specs/{spec}/counters}: the spec's counters of {@code /metrics} on the
 * instance that owns the namespace, by their Prometheus names, as {@code {"namespace", "work_spec_name", "counters":
 * {"coordinate_units_added_total": n, ...}}}; a spec the instance has applied nothing to, or past the metrics' caps of
 * labels, has none. The dashboard reads it twice to show a rate without scraping every series of {@code /metrics}.
 */
final class SpecCounterRoutes {

    private SpecCounterRoutes() {}

    static void register(JavalinDefaultRouting routes, NamespaceRouter router, MeterRegistry registry) {
        routes.get(
                "/api/namespaces/{ns}/work-specs/{spec}/counters",
                router.handler((ctx, query) -> answer(
                        query.ns(),
                        WorkSpecRoutes.requireSpec(query, ctx.pathParam("spec")).name(),
                        registry)));
    }

    private static JsonNode answer(String ns, String spec, MeterRegistry registry) {
        Map<String, Long> sorted = new TreeMap<>();
        for (Counter counter :
                Search.in(registry).tags("namespace", ns, "work_spec", spec).counters()) {
            Meter.Id id = counter.getId();
            String name = registry.config().namingConvention().name(id.getName(), Meter.Type.COUNTER, id.getBaseUnit());
            // the exposition adds the counter's suffix, which the naming convention leaves out
            sorted.merge(name.endsWith("_total") ? name : name + "_total", (long) counter.count(), Long::sum);
        }
        ObjectNode body = Json.object();
        body.put("namespace", ns);
        body.put("work_spec_name", spec);
        ObjectNode counters = body.putObject("counters");
        sorted.forEach(counters::put);
        return body;
    }
}
