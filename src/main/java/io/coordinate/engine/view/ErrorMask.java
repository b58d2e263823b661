package io.coordinate.engine.view;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.model.ReplicationState;
import io.coordinate.protocol.Json;
import java.util.ArrayList;
import java.util.List;

/** BOINC's error bits of a replicated unit (docs/replication.md#the-transitioner-and-the-validator) in words. */
public final class ErrorMask {

    private ErrorMask() {}

    /** {@code "too many errors, too many total replicas"} for mask 10. */
    public static String describe(int mask) {
        List<String> words = new ArrayList<>();
        if ((mask & ReplicationState.COULDNT_SEND) != 0) {
            words.add("couldn't send");
        }
        if ((mask & ReplicationState.TOO_MANY_ERRORS) != 0) {
            words.add("too many errors");
        }
        if ((mask & ReplicationState.TOO_MANY_SUCCESSES) != 0) {
            words.add("too many successes without consensus");
        }
        if ((mask & ReplicationState.TOO_MANY_TOTAL) != 0) {
            words.add("too many total replicas");
        }
        if ((mask & ReplicationState.CANCELLED) != 0) {
            words.add("cancelled");
        }
        return String.join(", ", words);
    }

    /** What a failed replicated unit shows as its data: {@code {"traceback": "replicas: ...", "error_mask": n}}. */
    public static ObjectNode failure(int mask) {
        ObjectNode data = Json.object();
        data.put("traceback", "replicas: " + describe(mask));
        data.put("error_mask", mask);
        return data;
    }
}
