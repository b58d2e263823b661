package io.coordinate.engine.handlers;

import io.coordinate.protocol.CommandType;
import java.util.EnumMap;
import java.util.Map;

/** Finds the handler of a command type. Each command family registers its handlers here. */
public final class HandlerRegistry {

    private final Map<CommandType, CommandHandler> handlers = new EnumMap<>(CommandType.class);

    public HandlerRegistry register(CommandType type, CommandHandler handler) {
        if (handlers.putIfAbsent(type, handler) != null) {
            throw new IllegalStateException("two handlers for " + type.wireName());
        }
        return this;
    }

    public CommandHandler handler(CommandType type) {
        return handlers.get(type);
    }

    public boolean handles(CommandType type) {
        return handlers.containsKey(type);
    }
}
