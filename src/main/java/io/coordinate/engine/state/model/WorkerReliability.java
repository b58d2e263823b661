package io.coordinate.engine.state.model;

/**
 * A worker's record with replicas (docs/replication.md#workers-reliability, BOINC's host reliability):
 * {@code consecutiveValid} counts valid results since its last invalid result, error or timeout; the others are totals.
 */
public record WorkerReliability(long consecutiveValid, long valid, long invalid, long errors, long timeouts) {

    public static final WorkerReliability NONE = new WorkerReliability(0, 0, 0, 0, 0);

    public WorkerReliability validated(boolean isValid) {
        return isValid
                ? new WorkerReliability(consecutiveValid + 1, valid + 1, invalid, errors, timeouts)
                : new WorkerReliability(0, valid, invalid + 1, errors, timeouts);
    }

    public WorkerReliability error() {
        return new WorkerReliability(0, valid, invalid, errors + 1, timeouts);
    }

    public WorkerReliability timeout() {
        return new WorkerReliability(0, valid, invalid, errors, timeouts + 1);
    }
}
