package io.coordinate.protocol;

/**
 * The largest record the app reads or writes: key plus value, uncompressed. Kafka's producer refuses a record
 * above its {@code max.request.size} (1 MiB), and under exactly-once the refusal aborts the whole transaction, so a
 * command whose output did not fit was replayed and refused again for ever, stopping every namespace of its task.
 * The engine therefore refuses such a command up front ({@code too_large}, nothing changed), and the topology never
 * forwards a record above this limit. The margin below 1 MiB leaves room for headers and Kafka's own framing.
 */
public final class RecordLimit {

    public static final int MAX_RECORD_BYTES = 1_000_000;
    /** The producer setting the limit stays below; set explicitly so that the two cannot drift apart. */
    public static final int PRODUCER_MAX_REQUEST_BYTES = 1024 * 1024;
    /** The longest error message a reply or a dead letter carries: messages quote names, which may be long. */
    public static final int MAX_MESSAGE_CHARS = 1_000;

    private RecordLimit() {}

    /** The size Kafka counts for a record of this key and value, headers aside. */
    public static long size(byte[] key, byte[] value) {
        return (key == null ? 0L : key.length) + (value == null ? 0L : value.length);
    }

    public static boolean fits(byte[] key, byte[] value) {
        return size(key, value) <= MAX_RECORD_BYTES;
    }

    /** {@code message}, cut to {@link #MAX_MESSAGE_CHARS} with a note of how long it was. */
    public static String shortMessage(String message) {
        if (message == null || message.length() <= MAX_MESSAGE_CHARS) {
            return message;
        }
        return message.substring(0, MAX_MESSAGE_CHARS) + "... (" + message.length() + " characters)";
    }
}
