package io.coordinate.engine.replication;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.Replica;
import io.coordinate.engine.state.model.ReplicationState;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;

/**
 * The record a decided round leaves on {@code coordinate.results} (docs/reference.md#assimilated-result): the canonical
 * replica's {@code result} (absent without one), the error mask, and every replica of the round.
 */
public final class Assimilation {

    private Assimilation() {}

    /**
     * @param canonical the canonical replica's attempt; null when the round failed
     */
    public static ObjectNode record(String ns, WorkUnitRecord unit, AttemptRecord canonical, long now) {
        ReplicationState round = unit.replication();
        ObjectNode record = Json.object();
        record.put("namespace", ns);
        record.put("work_spec_name", unit.spec());
        record.put("work_unit_name", unit.name());
        record.put("time", Times.format(now));
        record.put("round", round.round());
        if (canonical != null) {
            record.set(
                    "canonical_result",
                    canonical.data() == null || canonical.data().get("result") == null
                            ? Json.MAPPER.nullNode()
                            : canonical.data().get("result"));
            record.put("canonical_attempt_id", canonical.id());
        }
        record.put("error_mask", round.errorMask());
        record.set("replicas", replicas(round));
        return record;
    }

    public static ArrayNode replicas(ReplicationState round) {
        ArrayNode list = Json.MAPPER.createArrayNode();
        for (Replica replica : round.replicas()) {
            list.add(replica(replica));
        }
        return list;
    }

    /** {@code {"attempt_id", "worker", "host", "outcome", "validate_state"}}; a running replica's outcome is null. */
    public static ObjectNode replica(Replica replica) {
        ObjectNode node = Json.object();
        node.put("attempt_id", replica.id());
        node.put("worker", replica.worker());
        node.put("host", replica.host());
        if (replica.outcome() == null) {
            node.putNull("outcome");
        } else {
            node.put("outcome", replica.outcome().wireName());
        }
        node.put("validate_state", replica.validateState().wireName());
        return node;
    }
}
