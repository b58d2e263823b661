package io.coordinate.engine.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.protocol.Times;

/**
 * What a unit's view says of its retries (docs/reference.md#unit): how many attempts it counted, its latest
 * attempt's error, and when it runs next. Derived from the unit and its latest attempt, as of now.
 */
public final class RetryView {

    /** {@code last_error} keeps the end of a traceback, where the error itself usually is. */
    static final int ERROR_TAIL = 2000;

    static final String LEASE_EXPIRED = "lease expired";

    private RetryView() {}

    /**
     * @param status the unit's status now
     * @param latest its latest attempt's status now, or null when it has none
     * @param latestData that attempt's data (null when none)
     */
    static void put(
            ObjectNode node, WorkUnitRecord unit, UnitStatus status, AttemptStatus latest, JsonNode latestData) {
        node.put("attempt_count", unit.attemptCount());
        node.put("last_error", lastError(latest, latestData));
        if (status == UnitStatus.DELAYED) {
            node.put("next_attempt_at", Times.format(unit.notBefore()));
        } else {
            node.putNull("next_attempt_at");
        }
        node.put("retrying", retrying(status, latest));
    }

    /** A delayed unit whose latest attempt ended so that it runs again: retried, or its lease ran out. */
    public static boolean retrying(UnitStatus status, AttemptStatus latest) {
        return status == UnitStatus.DELAYED && (latest == AttemptStatus.RETRYABLE || latest == AttemptStatus.EXPIRED);
    }

    /** The tail of the latest attempt's {@code traceback} when that attempt ended in error, else null. */
    static String lastError(AttemptStatus latest, JsonNode data) {
        if (latest != AttemptStatus.FAILED && latest != AttemptStatus.RETRYABLE && latest != AttemptStatus.EXPIRED) {
            return null;
        }
        JsonNode traceback = data == null ? null : data.get("traceback");
        if (traceback == null || traceback.isNull()) {
            return latest == AttemptStatus.EXPIRED ? LEASE_EXPIRED : null;
        }
        return tail(traceback.isTextual() ? traceback.textValue() : traceback.toString());
    }

    private static String tail(String text) {
        if (text.length() <= ERROR_TAIL) {
            return text;
        }
        int from = text.length() - ERROR_TAIL;
        // never start inside a surrogate pair, which would leave half a character
        return text.substring(Character.isLowSurrogate(text.charAt(from)) ? from + 1 : from);
    }
}
