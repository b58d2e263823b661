package io.coordinate.protocol;

import java.util.List;

/** The names of the public topics (docs/operations.md#topics), with the deployment's prefix applied. */
public record TopicNames(String prefix) {

    public static final String COMMANDS = "coordinate.commands";
    public static final String CHAINED = "coordinate.chained";
    public static final String ASSIGNMENTS = "coordinate.assignments";
    public static final String REPLIES = "coordinate.replies";
    public static final String EVENTS = "coordinate.events";
    public static final String RESULTS = "coordinate.results";
    public static final String DEAD_LETTER = "coordinate.dead-letter";

    /** Every public topic, unprefixed, in the order of docs/operations.md#topics. */
    public static final List<String> ALL =
            List.of(COMMANDS, CHAINED, ASSIGNMENTS, REPLIES, EVENTS, RESULTS, DEAD_LETTER);

    public TopicNames {
        prefix = prefix == null ? "" : prefix;
    }

    public static TopicNames unprefixed() {
        return new TopicNames("");
    }

    public String commands() {
        return prefix + COMMANDS;
    }

    public String chained() {
        return prefix + CHAINED;
    }

    public String assignments() {
        return prefix + ASSIGNMENTS;
    }

    public String replies() {
        return prefix + REPLIES;
    }

    public String events() {
        return prefix + EVENTS;
    }

    public String results() {
        return prefix + RESULTS;
    }

    public String deadLetter() {
        return prefix + DEAD_LETTER;
    }
}
