package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.CommandType;
import io.coordinate.protocol.Json;

/** {@code destroy_namespace}: the name is free afterwards; its next command starts an empty namespace. */
public final class NamespaceCommands {

    private NamespaceCommands() {}

    public static void register(HandlerRegistry registry) {
        registry.register(CommandType.DESTROY_NAMESPACE, NamespaceCommands::destroy);
    }

    static JsonNode destroy(CommandContext ctx) {
        ctx.namespaces().destroy(ctx.namespace());
        ObjectNode result = Json.object();
        result.put("destroyed", ctx.namespace());
        return result;
    }
}
