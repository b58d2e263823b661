package io.coordinate.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import java.time.Instant;
import java.util.Map;

/** A work unit to add with {@link CoordinateClient#addWorkUnits}: docs/reference.md "Unit object". */
public final class WorkUnit {

    private final ObjectNode json;

    private WorkUnit(ObjectNode json) {
        this.json = json;
    }

    /** A unit with this name. */
    public static Builder named(String name) {
        return new Builder().name(name);
    }

    /** A unit that the app names with a random UUID. */
    public static Builder unnamed() {
        return new Builder();
    }

    ObjectNode json() {
        return json;
    }

    /** Builds a {@link WorkUnit}. */
    public static final class Builder {
        private final ObjectNode json = Json.object();

        private Builder() {}

        private Builder name(String name) {
            json.put("name", name);
            return this;
        }

        /** The data handed to the worker: strings, numbers, booleans, lists and maps. */
        public Builder data(Map<String, ?> data) {
            json.set("data", JsonValues.object(data));
            return this;
        }

        /** Higher is handed out first; equal priorities go in name order. */
        public Builder priority(double priority) {
            json.put("priority", priority);
            return this;
        }

        /**
         * Its concurrency group (1 to 256 characters, e.g. a customer id): a spec's {@code group_max_running} caps the
         * group's pending units, and requests take units round robin among groups (docs/reference.md#concurrency-groups).
         */
        public Builder group(String group) {
            json.put("group", group);
            return this;
        }

        /** Not before now + this many seconds. */
        public Builder delay(double seconds) {
            json.put("delay", seconds);
            return this;
        }

        public Builder notBefore(Instant time) {
            json.put("not_before", time.toString());
            return this;
        }

        /** This unit is a child of that one (a job tree). */
        public Builder parent(String workSpecName, String workUnitName) {
            json.putObject("parent").put("work_spec_name", workSpecName).put("work_unit_name", workUnitName);
            return this;
        }

        /** This unit runs after that one (it is its heir). */
        public Builder predecessor(String workSpecName, String workUnitName) {
            json.putObject("predecessor").put("work_spec_name", workSpecName).put("work_unit_name", workUnitName);
            return this;
        }

        public WorkUnit build() {
            return new WorkUnit(json.deepCopy());
        }
    }
}
