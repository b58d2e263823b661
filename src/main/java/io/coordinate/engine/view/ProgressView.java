package io.coordinate.engine.view;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.model.AttemptProgress;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;

/** An attempt's {@code progress} as its view shows it (docs/reference.md#attempt). */
final class ProgressView {

    private ProgressView() {}

    /** {@code {"fraction", "message", "time"}}: what the worker last reported, and when. */
    static ObjectNode of(AttemptProgress progress) {
        ObjectNode node = Json.object();
        node.set("fraction", progress.fraction() == null ? node.nullNode() : Numbers.node(progress.fraction()));
        node.put("message", progress.message());
        node.put("time", Times.format(progress.time()));
        return node;
    }
}
