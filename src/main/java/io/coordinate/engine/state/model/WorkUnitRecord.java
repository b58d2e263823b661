package io.coordinate.engine.state.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A work unit as stored. {@code status} is kept exact by the engine, which applies due expiries and releases
 * before every command; readers between two commands see it as of their own time through the views
 * ({@code StateViews.unitNow} in {@code engine.view}).
 *
 * @param data the unit's own data; the data a reader sees is the active attempt's when there is one
 * @param notBefore epoch millis before which the unit is delayed; null = none
 * @param activeAttempt sequence number of the active attempt; null = none. A replicated unit has none until its
 *     canonical replica is chosen, which then is its active attempt
 * @param attemptCount how many attempts the unit ever had (for {@code max_retries})
 * @param family parent, predecessor and place in the job tree (docs/children-and-heirs.md); null for a unit outside any
 * @param replication its round of replicas (docs/replication.md); null for a unit that never ran as replicas
 * @param purgeAt when a finished or failed unit of a spec with {@code retention} is purged; null = never
 * @param availableSince epoch millis when the unit last became available (docs/reference.md, "Unit statuses"); set
 *     by the unit state's writes, kept while the unit is not available; null = unknown (a unit stored before the
 *     field existed, or one that never was available)
 * @param group its concurrency group (docs/reference.md#concurrency-groups); null = none, no group's cap applies
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WorkUnitRecord(
        String spec,
        String name,
        JsonNode data,
        double priority,
        Long notBefore,
        UnitStatus status,
        Long activeAttempt,
        int attemptCount,
        UnitFamily family,
        ReplicationState replication,
        Long purgeAt,
        Long availableSince,
        String group) {

    /** A new unit's builder: available, no data, priority 0, and nothing else set. */
    public static Builder builder(String spec, String name) {
        return new WorkUnitRecord(
                        spec, name, null, 0, null, UnitStatus.AVAILABLE, null, 0, null, null, null, null, null)
                .toBuilder();
    }

    /**
     * The unit once attempt {@code seq} has started on it: pending on it, one attempt more, out of any round of
     * replicas (a round that has not started is dropped). See {@link AttemptRecord#started}.
     */
    public WorkUnitRecord startedOn(long seq) {
        return toBuilder()
                .activeAttempt(seq)
                .status(UnitStatus.PENDING)
                .attemptCount(attemptCount + 1)
                .replication(null)
                .build();
    }

    /** A builder holding this unit's fields: the way to make a changed copy. */
    public Builder toBuilder() {
        return new Builder();
    }

    /**
     * A changed copy in the making. Each field starts as the enclosing record's, so a new component is one field line
     * and its setter here; the canonical constructor, the only one, makes the compiler ask for it in {@link #build}
     * and {@link WorkUnitRecord#builder}, and {@code RecordCopiesTest} fails on a field that a copy would lose.
     */
    public final class Builder {
        private String spec = WorkUnitRecord.this.spec;
        private String name = WorkUnitRecord.this.name;
        private JsonNode data = WorkUnitRecord.this.data;
        private double priority = WorkUnitRecord.this.priority;
        private Long notBefore = WorkUnitRecord.this.notBefore;
        private UnitStatus status = WorkUnitRecord.this.status;
        private Long activeAttempt = WorkUnitRecord.this.activeAttempt;
        private int attemptCount = WorkUnitRecord.this.attemptCount;
        private UnitFamily family = WorkUnitRecord.this.family;
        private ReplicationState replication = WorkUnitRecord.this.replication;
        private Long purgeAt = WorkUnitRecord.this.purgeAt;
        private Long availableSince = WorkUnitRecord.this.availableSince;
        private String group = WorkUnitRecord.this.group;

        private Builder() {}

        public Builder spec(String value) {
            spec = value;
            return this;
        }

        public Builder name(String value) {
            name = value;
            return this;
        }

        public Builder data(JsonNode value) {
            data = value;
            return this;
        }

        public Builder priority(double value) {
            priority = value;
            return this;
        }

        public Builder notBefore(Long value) {
            notBefore = value;
            return this;
        }

        public Builder status(UnitStatus value) {
            status = value;
            return this;
        }

        public Builder activeAttempt(Long value) {
            activeAttempt = value;
            return this;
        }

        public Builder attemptCount(int value) {
            attemptCount = value;
            return this;
        }

        public Builder family(UnitFamily value) {
            family = value;
            return this;
        }

        public Builder replication(ReplicationState value) {
            replication = value;
            return this;
        }

        public Builder purgeAt(Long value) {
            purgeAt = value;
            return this;
        }

        public Builder availableSince(Long value) {
            availableSince = value;
            return this;
        }

        public Builder group(String value) {
            group = value;
            return this;
        }

        public WorkUnitRecord build() {
            return new WorkUnitRecord(
                    spec,
                    name,
                    data,
                    priority,
                    notBefore,
                    status,
                    activeAttempt,
                    attemptCount,
                    family,
                    replication,
                    purgeAt,
                    availableSince,
                    group);
        }
    }
}
