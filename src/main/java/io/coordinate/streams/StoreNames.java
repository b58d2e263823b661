package io.coordinate.streams;

/**
 * Names of stores and processor nodes, in one place. A store name is part of its changelog topic's name
 * ({@code <application.id>-<store>-changelog}): renaming it is a migration, not a refactoring.
 */
public final class StoreNames {

    /** The records of {@code io.coordinate.engine.state.codec.KeyFamily}: changelogged (the name predates the indexes' store). */
    public static final String STATE = "coordinate-state";

    /** The derived indexes of {@code KeyFamily}: local only, rebuilt from the records when needed. */
    public static final String INDEXES = "coordinate-indexes";

    static final String COMMANDS_SOURCE = "commands-source";
    static final String CHAINED_SOURCE = "chained-source";
    static final String ENGINE = "engine";
    static final String ASSIGNMENTS_SINK = "assignments-sink";
    static final String REPLIES_SINK = "replies-sink";
    static final String EVENTS_SINK = "events-sink";
    static final String CHAINED_SINK = "chained-sink";
    static final String RESULTS_SINK = "results-sink";
    static final String DEAD_LETTER_SINK = "dead-letter-sink";
    static final String REROUTE_SINK = "reroute-sink";

    private StoreNames() {}
}
