package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Applies one command type. Validates first and throws {@link io.coordinate.protocol.CommandRejection}
 * before changing anything; returns the {@code result} of the ok reply.
 */
@FunctionalInterface
public interface CommandHandler {

    JsonNode handle(CommandContext ctx);
}
