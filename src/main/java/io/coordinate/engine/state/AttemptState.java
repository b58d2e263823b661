package io.coordinate.engine.state;

import io.coordinate.engine.state.model.AttemptRecord;
import java.util.List;

/** Attempts, by number, by unit and by worker. */
public interface AttemptState {

    AttemptRecord get(String ns, long seq);

    /** A unit's attempts, oldest first. */
    List<AttemptRecord> ofUnit(String ns, String spec, String unit);

    /** A unit's latest attempt (the last of {@link #ofUnit}), or null when it has none; read with its unit. */
    AttemptRecord latestOfUnit(String ns, String spec, String unit);

    /** A worker's pending attempts, oldest first. */
    List<AttemptRecord> activeOfWorker(String ns, String worker);

    /** A worker's attempts, oldest first. */
    List<AttemptRecord> ofWorker(String ns, String worker);
}
