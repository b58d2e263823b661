package io.coordinate.engine.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.LongNode;

/** Numbers as a reader expects them: 10, not 10.0, for whole values. */
public final class Numbers {

    private Numbers() {}

    public static JsonNode node(double value) {
        if (value == Math.rint(value) && !Double.isInfinite(value) && Math.abs(value) < 1e15) {
            return LongNode.valueOf((long) value);
        }
        return DoubleNode.valueOf(value);
    }
}
