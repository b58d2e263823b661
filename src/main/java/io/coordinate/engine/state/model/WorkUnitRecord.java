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
    Long availableSince) {

  public WorkUnitRecord(
      String spec, String name, JsonNode data, double priority, Long notBefore, UnitStatus status,
      Long activeAttempt, int attemptCount, UnitFamily family, ReplicationState replication, Long purgeAt) {
    this(spec, name, data, priority, notBefore, status, activeAttempt, attemptCount, family, replication, purgeAt,
        null);
  }

  /** A unit outside any job tree. */
  public WorkUnitRecord(
      String spec, String name, JsonNode data, double priority, Long notBefore, UnitStatus status,
      Long activeAttempt, int attemptCount) {
    this(spec, name, data, priority, notBefore, status, activeAttempt, attemptCount, null, null, null, null);
  }

  public WorkUnitRecord(
      String spec, String name, JsonNode data, double priority, Long notBefore, UnitStatus status,
      Long activeAttempt, int attemptCount, UnitFamily family) {
    this(spec, name, data, priority, notBefore, status, activeAttempt, attemptCount, family, null, null, null);
  }

  /**
   * The unit once attempt {@code seq} has started on it: pending on it, one attempt more, out of any round of
   * replicas (a round that has not started is dropped). See {@link AttemptRecord#started}.
   */
  public WorkUnitRecord startedOn(long seq) {
    return withActiveAttempt(seq, UnitStatus.PENDING).withAttemptCount(attemptCount + 1).withReplication(null);
  }

  public WorkUnitRecord withStatus(UnitStatus newStatus) {
    return new WorkUnitRecord(spec, name, data, priority, notBefore, newStatus, activeAttempt, attemptCount, family,
        replication, purgeAt, availableSince);
  }

  public WorkUnitRecord withPriority(double newPriority) {
    return new WorkUnitRecord(spec, name, data, newPriority, notBefore, status, activeAttempt, attemptCount, family,
        replication, purgeAt, availableSince);
  }

  public WorkUnitRecord withActiveAttempt(Long attempt, UnitStatus newStatus) {
    return new WorkUnitRecord(spec, name, data, priority, notBefore, newStatus, attempt, attemptCount, family,
        replication, purgeAt, availableSince);
  }

  public WorkUnitRecord withNotBefore(Long time, UnitStatus newStatus) {
    return new WorkUnitRecord(spec, name, data, priority, time, newStatus, activeAttempt, attemptCount, family,
        replication, purgeAt, availableSince);
  }

  public WorkUnitRecord withAttemptCount(int count) {
    return new WorkUnitRecord(spec, name, data, priority, notBefore, status, activeAttempt, count, family,
        replication, purgeAt, availableSince);
  }

  public WorkUnitRecord withFamily(UnitFamily newFamily) {
    return new WorkUnitRecord(spec, name, data, priority, notBefore, status, activeAttempt, attemptCount, newFamily,
        replication, purgeAt, availableSince);
  }

  public WorkUnitRecord withReplication(ReplicationState newReplication) {
    return new WorkUnitRecord(spec, name, data, priority, notBefore, status, activeAttempt, attemptCount, family,
        newReplication, purgeAt, availableSince);
  }

  public WorkUnitRecord withPurgeAt(Long time) {
    return new WorkUnitRecord(spec, name, data, priority, notBefore, status, activeAttempt, attemptCount, family,
        replication, time, availableSince);
  }

  public WorkUnitRecord withAvailableSince(Long time) {
    return new WorkUnitRecord(spec, name, data, priority, notBefore, status, activeAttempt, attemptCount, family,
        replication, purgeAt, time);
  }
}
