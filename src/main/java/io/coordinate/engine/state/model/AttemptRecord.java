package io.coordinate.engine.state.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * One attempt of a worker at a unit. {@code seq} is unique for ever within the namespace and is the public
 * attempt id (as a decimal string).
 *
 * @param replica true for a replica of a replicated unit (docs/replication.md), whose outcome and validation are kept
 *     in the unit's round; null for an ordinary attempt
 * @param progress what the worker last reported of its progress (null: nothing yet)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AttemptRecord(
        long seq,
        String spec,
        String unit,
        String worker,
        AttemptStatus status,
        JsonNode data,
        long startTime,
        long expirationTime,
        Long endTime,
        Boolean replica,
        AttemptProgress progress) {

    /**
     * The attempt a request starts: attempt {@code seq} of {@code worker} at the unit, pending, with the unit's data.
     */
    public static AttemptRecord started(
            long seq, WorkUnitRecord unit, String worker, long startTime, long expirationTime) {
        return new AttemptRecord(
                seq,
                unit.spec(),
                unit.name(),
                worker,
                AttemptStatus.PENDING,
                unit.data(),
                startTime,
                expirationTime,
                null,
                null,
                null);
    }

    public String id() {
        return Long.toString(seq);
    }

    /** Whether this attempt was handed out as a replica (it may belong to a round that a reset has ended since). */
    public boolean isReplica() {
        return Boolean.TRUE.equals(replica);
    }

    public AttemptRecord withStatus(AttemptStatus newStatus, JsonNode newData, Long end) {
        return new AttemptRecord(
                seq, spec, unit, worker, newStatus, newData, startTime, expirationTime, end, replica, progress);
    }

    /** Renewed: its new expiration and data; {@code reported} is the worker's progress (null keeps the last). */
    public AttemptRecord withRenewal(long expiration, JsonNode newData, AttemptProgress reported) {
        return new AttemptRecord(
                seq,
                spec,
                unit,
                worker,
                status,
                newData,
                startTime,
                expiration,
                endTime,
                replica,
                reported != null ? reported : progress);
    }
}
