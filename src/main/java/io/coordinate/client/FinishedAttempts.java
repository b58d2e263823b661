package io.coordinate.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The reply to {@code finish_attempts}: how many items were applied (or were finished already), and the items the
 * app refused, each with its error code ({@code no_such_attempt}, {@code not_pending}).
 */
public record FinishedAttempts(long finished, List<Refused> errors) {

    /** An item of the batch that was not applied. */
    public record Refused(String attemptId, String code, String message) {}

    /** The result of two commands that finished attempts in turn. */
    FinishedAttempts plus(FinishedAttempts next) {
        List<Refused> all = new ArrayList<>(errors);
        all.addAll(next.errors);
        return new FinishedAttempts(finished + next.finished, List.copyOf(all));
    }

    static FinishedAttempts from(JsonNode json) {
        List<Refused> errors = new ArrayList<>();
        json.path("errors")
                .forEach(error -> errors.add(new Refused(
                        error.path("attempt_id").asText(),
                        error.path("code").asText(),
                        error.path("message").asText())));
        return new FinishedAttempts(json.path("finished").asLong(), List.copyOf(errors));
    }
}
