package io.coordinate.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import java.util.Map;
import java.util.Objects;

/**
 * A work spec to define with {@link CoordinateClient#setWorkSpec}: its name and data. The builder's setters are the
 * keys the app reads (docs/reference.md "set_work_spec"); {@link Builder#set} adds any other key, which the app
 * keeps as the spec's data.
 */
public final class WorkSpec {

    private final ObjectNode data;

    private WorkSpec(ObjectNode data) {
        this.data = data;
    }

    public static Builder named(String name) {
        return new Builder(name);
    }

    public String name() {
        return data.get("name").asText();
    }

    /** The spec's data as sent. */
    public Map<String, Object> data() {
        return JsonValues.map(data);
    }

    ObjectNode json() {
        return data.deepCopy();
    }

    /** Builds a {@link WorkSpec}. */
    public static final class Builder {
        private final ObjectNode data = Json.object();

        private Builder(String name) {
            Objects.requireNonNull(name, "name");
            data.put("name", name);
        }

        /** Only the specs of the highest priority are scheduled. */
        public Builder priority(double priority) {
            data.put("priority", priority);
            return this;
        }

        /** The spec's share of the work among specs of the same priority. */
        public Builder weight(double weight) {
            data.put("weight", weight);
            return this;
        }

        /** The spec starts paused ({@code disabled}). */
        public Builder paused(boolean paused) {
            data.put("disabled", paused);
            return this;
        }

        public Builder continuous(boolean continuous) {
            data.put("continuous", continuous);
            return this;
        }

        /** The minimum seconds between two continuous units. */
        public Builder interval(double seconds) {
            data.put("interval", seconds);
            return this;
        }

        /** The most pending units at a time (0: no cap). */
        public Builder maxRunning(long maxRunning) {
            data.put("max_running", maxRunning);
            return this;
        }

        /** The most attempts one request gets ({@code max_getwork}; 0: no cap). */
        public Builder maxAttemptsReturned(long max) {
            data.put("max_getwork", max);
            return this;
        }

        /** A unit gets at most this many attempts (0: no limit). */
        public Builder maxRetries(long maxRetries) {
            data.put("max_retries", maxRetries);
            return this;
        }

        /** The spec that receives the {@code output} of finished units. */
        public Builder then(String nextSpec) {
            data.put("then", nextSpec);
            return this;
        }

        public Builder runtime(String runtime) {
            data.put("runtime", runtime);
            return this;
        }

        public Builder minGb(double minGb) {
            data.put("min_gb", minGb);
            return this;
        }

        /** Finished and failed units are purged this many seconds after they settled. */
        public Builder retention(double seconds) {
            data.put("retention", seconds);
            return this;
        }

        /** Any other key of the spec's data (replication settings, or data of your own). */
        public Builder set(String key, Object value) {
            if ("name".equals(key)) {
                throw new IllegalArgumentException("the name is given to WorkSpec.named");
            }
            data.set(key, JsonValues.tree(value));
            return this;
        }

        public WorkSpec build() {
            return new WorkSpec(data.deepCopy());
        }
    }
}
