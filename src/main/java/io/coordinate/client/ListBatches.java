package io.coordinate.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BinaryOperator;
import java.util.function.Function;

/**
 * Splits the items of a list command (units to add, attempts to finish) into commands that fit: Kafka refuses a
 * record over its limit, and the app refuses a command whose reply or events would be over it ({@code too_large}).
 * A command carries at most {@link #MAX_ITEMS} items and {@link #MAX_BYTES} bytes of them, which keeps its outputs
 * (a name per unit in the reply, an event per unit) well under the limit too.
 */
final class ListBatches {

    static final int MAX_ITEMS = 1_000;
    static final int MAX_BYTES = 256 * 1024;

    private ListBatches() {}

    /** Consecutive slices of {@code items}, in order; an item over {@link #MAX_BYTES} alone makes a slice. */
    static <T> List<List<T>> split(List<T> items, Function<T, JsonNode> json) {
        List<List<T>> batches = new ArrayList<>();
        int from = 0;
        long bytes = 0;
        for (int i = 0; i < items.size(); i++) {
            long size = size(json.apply(items.get(i)));
            if (i > from && (i - from == MAX_ITEMS || bytes + size > MAX_BYTES)) {
                batches.add(items.subList(from, i));
                from = i;
                bytes = 0;
            }
            bytes += size;
        }
        if (from < items.size() || items.isEmpty()) {
            batches.add(items.subList(from, items.size()));
        }
        return batches;
    }

    /**
     * Sends one command per slice, each once the one before it was applied (so a unit may name a parent added by an
     * earlier slice), and merges their results. The first refusal fails the whole; the slices before it stay applied.
     */
    static <T, R> CompletableFuture<R> inOrder(
            List<List<T>> batches, Function<List<T>, CompletableFuture<R>> send, BinaryOperator<R> merge) {
        CompletableFuture<R> result = send.apply(batches.get(0));
        for (List<T> batch : batches.subList(1, batches.size())) {
            result = result.thenCompose(sofar -> send.apply(batch).thenApply(next -> merge.apply(sofar, next)));
        }
        return result;
    }

    private static long size(JsonNode node) {
        try {
            return Json.MAPPER.writeValueAsBytes(node).length;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
