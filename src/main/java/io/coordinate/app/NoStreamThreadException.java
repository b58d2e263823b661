package io.coordinate.app;

/**
 * No stream thread runs and none was started in place of the failed one, while Kafka Streams still says RUNNING or
 * REBALANCING: the process processes nothing more, and only a restart helps. {@code run} and {@code dev} end with
 * exit code 5 on it (docs/cli.md).
 */
public final class NoStreamThreadException extends IllegalStateException {

    public NoStreamThreadException(String reason) {
        super(reason);
    }
}
