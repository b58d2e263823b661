package io.coordinate.engine.state;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * One attempt of a worker at a unit. {@code seq} is unique for ever within the namespace and is the public
 * attempt id (as a decimal string).
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
    Long endTime) {

  public String id() {
    return Long.toString(seq);
  }

  public AttemptRecord withStatus(AttemptStatus newStatus, JsonNode newData, Long end) {
    return new AttemptRecord(seq, spec, unit, worker, newStatus, newData, startTime, expirationTime, end);
  }

  public AttemptRecord withExpiration(long expiration, JsonNode newData) {
    return new AttemptRecord(seq, spec, unit, worker, status, newData, startTime, expiration, endTime);
  }
}
