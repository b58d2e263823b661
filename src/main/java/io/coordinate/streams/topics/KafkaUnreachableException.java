package io.coordinate.streams.topics;

/**
 * The cluster of {@code bootstrap.servers} does not answer (nothing listens, the name does not resolve, TLS or SASL
 * is refused). The message is one line naming the address, which the CLI prints instead of a stack trace.
 */
public final class KafkaUnreachableException extends RuntimeException {

    public KafkaUnreachableException(String bootstrapServers, String reason, Throwable cause) {
        super("cannot reach Kafka at " + bootstrapServers + ": " + oneLine(reason), cause);
    }

    private static String oneLine(String reason) {
        return reason == null
                ? "no answer"
                : reason.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    }
}
