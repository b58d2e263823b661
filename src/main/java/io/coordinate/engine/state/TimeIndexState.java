package io.coordinate.engine.state;

import io.coordinate.engine.state.codec.AnswerKeys;
import io.coordinate.engine.state.codec.TimeIndexKeys;
import java.util.List;

/**
 * The time indexes the engine's time step reads: delayed units, attempt deadlines, purges and kept answers' expiry.
 * An entry may outlive what it names (after a delete); the time step re-checks each before it acts.
 */
public interface TimeIndexState {

    /** Delayed units whose not-before time is at or before {@code now}: due for release. */
    List<TimeIndexKeys.DelayedUnitKey> dueDelayedUnits(long now, int limit);

    /**
     * Delayed units whose not-before time is at or after {@code from} (those still delayed then), in time order, at
     * most {@code limit}: the index across every namespace and spec, which a reader filters.
     */
    List<TimeIndexKeys.DelayedUnitKey> delayedUnitsFrom(long from, int limit);

    /** Pending attempts whose expiration is strictly before {@code now} ({@code expiration == now} is alive). */
    List<TimeIndexKeys.AttemptDeadlineKey> dueAttemptDeadlines(long now, int limit);

    /** Finished or failed units whose purge time is at or before {@code now}. */
    List<TimeIndexKeys.PurgeKey> duePurges(long now, int limit);

    /** Scheduled specs whose next fire time is at or before {@code now}. */
    List<TimeIndexKeys.ScheduleFireKey> dueScheduleFires(long now, int limit);

    /** Kept answers whose expiry is at or before {@code now}: due to be forgotten. */
    List<AnswerKeys.AnswerKey> dueAnswers(long now, int limit);
}
