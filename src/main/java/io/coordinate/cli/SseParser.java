package io.coordinate.cli;

/**
 * Reads the Server-Sent Events format a line at a time ({@code field: value} lines, a blank line ends a message,
 * {@code :} starts a comment), for {@code events tail} and the tests of the event feed.
 */
public final class SseParser {

    /** One message: {@code event} is "message" when the server named none; {@code id} null when it gave none. */
    public record Message(String event, String id, String data) {}

    private String event = "message";
    private String id;
    private final StringBuilder data = new StringBuilder();

    /** Whether the line is a comment, which the server sends to keep an idle stream open. */
    public static boolean isComment(String line) {
        return line.startsWith(":");
    }

    /** Takes the next line; answers the message a blank line completes, else null. */
    public Message line(String line) {
        if (line.isEmpty()) {
            Message message = new Message(event, id, data.toString());
            event = "message";
            id = null;
            data.setLength(0);
            return message;
        }
        if (isComment(line)) {
            return null;
        }
        int colon = line.indexOf(':');
        String field = colon < 0 ? line : line.substring(0, colon);
        String value = colon < 0 ? "" : line.substring(colon + 1);
        value = value.startsWith(" ") ? value.substring(1) : value;
        switch (field) {
            case "event" -> event = value;
            case "id" -> id = value;
            case "data" -> data.append(data.isEmpty() ? "" : "\n").append(value);
            default -> {} // retry and unknown fields: nothing to do
        }
        return null;
    }
}
