package io.coordinate.engine.view;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.model.RetryPolicy;
import io.coordinate.protocol.Json;

/** A spec's retry policy as {@code meta.retry} shows it (docs/reference.md#retries): every field, defaults filled in. */
final class RetryPolicyView {

    private RetryPolicyView() {}

    static ObjectNode json(RetryPolicy policy) {
        ObjectNode node = Json.object();
        node.put("max_attempts", policy.maxAttempts());
        node.put("backoff", policy.backoff().wireName());
        node.set("initial_delay", Numbers.node(policy.initialDelay()));
        node.set("multiplier", Numbers.node(policy.multiplier()));
        node.set("max_delay", Numbers.node(policy.maxDelay()));
        node.set("jitter", Numbers.node(policy.jitter()));
        node.set("max_per_minute", Numbers.node(policy.maxPerMinute()));
        return node;
    }
}
