package io.coordinate.protocol;

/**
 * The names a new namespace may not take (docs/reference.md, "The command envelope"): {@code .} and {@code ..},
 * which browsers and HTTP clients resolve as path segments, and names holding U+0000, which the HTTP server refuses
 * in a path. Such a namespace could be filled over Kafka but never read over HTTP, and the dashboard would list it
 * without opening it.
 */
public final class NamespaceNames {

    private NamespaceNames() {}

    /** @throws CommandRejection {@code bad_command} for a name no new namespace may take */
    public static void requireCreatable(String ns) {
        if (ns.equals(".") || ns.equals("..")) {
            throw CommandRejection.badCommand("\"namespace\" must not be \".\" or \"..\"");
        }
        if (ns.indexOf('\u0000') >= 0) {
            throw CommandRejection.badCommand("\"namespace\" must not hold the character U+0000");
        }
    }
}
