package io.coordinate.engine.view;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.SpecState;
import io.coordinate.engine.state.model.CronSchedule;
import io.coordinate.engine.state.model.SpecSchedule;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;

/**
 * A spec's cron schedule as {@code meta.schedule} shows it (docs/reference.md#schedules): every field, defaults filled
 * in, and {@code next_fire_time}.
 */
final class ScheduleView {

    private ScheduleView() {}

    /** Adds {@code schedule} to the spec's meta when it has one; a spec whose data has none costs no read. */
    static void put(ObjectNode meta, SpecState specs, String ns, WorkSpecRecord spec) {
        if (!spec.data().hasNonNull("schedule")) {
            return;
        }
        SpecSchedule kept = specs.schedule(ns, spec.name());
        if (kept != null) {
            meta.set("schedule", json(kept));
        }
    }

    static ObjectNode json(SpecSchedule kept) {
        CronSchedule schedule = kept.schedule();
        ObjectNode node = Json.object();
        node.put("cron", schedule.cron());
        node.put("timezone", schedule.timezone());
        ObjectNode unit = node.putObject("unit");
        unit.put("name_template", schedule.nameTemplate());
        unit.set("data", schedule.unitData());
        unit.set("priority", Numbers.node(schedule.priority()));
        node.put("catch_up", schedule.catchUp().wireName());
        node.put("next_fire_time", kept.nextFire() == SpecSchedule.NEVER ? null : Times.format(kept.nextFire()));
        return node;
    }
}
