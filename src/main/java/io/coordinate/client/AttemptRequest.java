package io.coordinate.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import java.time.Duration;
import java.util.Collection;

/** A {@code request_attempts}: who asks, for how many units, with which lease, from which specs. */
public final class AttemptRequest {

    private final ObjectNode json;

    private AttemptRequest(ObjectNode json) {
        this.json = json;
    }

    public static Builder forWorker(String worker) {
        return new Builder(worker);
    }

    public String worker() {
        return json.get("worker").asText();
    }

    ObjectNode json() {
        return json.deepCopy();
    }

    /** Builds an {@link AttemptRequest}. */
    public static final class Builder {
        private final ObjectNode json = Json.object();

        private Builder(String worker) {
            json.put("command", "request_attempts").put("worker", worker);
        }

        /** The most attempts to hand out (default 1). */
        public Builder count(int count) {
            if (count < 0) {
                throw new IllegalArgumentException("count must not be negative: " + count);
            }
            json.put("count", count);
            return this;
        }

        /** The lease of each attempt (default 900 s), in whole milliseconds. */
        public Builder lifetime(Duration lifetime) {
            json.put("lifetime", lifetime.toMillis() / 1000.0);
            return this;
        }

        /** Only units of these specs. */
        public Builder workSpecs(Collection<String> names) {
            names.forEach(json.putArray("work_specs")::add);
            return this;
        }

        /** Only specs with one of these runtimes ({@code ""} is the spec without one). */
        public Builder runtimes(Collection<String> runtimes) {
            runtimes.forEach(json.putArray("runtimes")::add);
            return this;
        }

        /**
         * The request's key: the same request sent again with it (by the same worker, within 10 minutes) gets the
         * attempts of the first rather than new ones. Unique per worker, such as a UUID. Default none: each call asks anew.
         */
        public Builder requestId(String requestId) {
            json.put("request_id", requestId);
            return this;
        }

        public Builder availableGb(double gb) {
            json.put("available_gb", gb);
            return this;
        }

        public AttemptRequest build() {
            return new AttemptRequest(json.deepCopy());
        }
    }
}
