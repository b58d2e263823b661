package io.coordinate.query;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/** A {@link CommandGateway} that records what it is given and answers with {@link #answer}. */
final class FakeGateway implements CommandGateway {

    record Call(String namespace, ObjectNode command, Duration timeout) {}

    final List<Call> calls = new ArrayList<>();
    volatile Function<ObjectNode, CompletableFuture<ObjectNode>> answer =
            command -> CompletableFuture.failedFuture(new IllegalStateException("no answer set"));

    @Override
    public synchronized CompletableFuture<ObjectNode> submit(String namespace, ObjectNode command, Duration timeout) {
        calls.add(new Call(namespace, command.deepCopy(), timeout));
        return answer.apply(command);
    }

    @Override
    public void close() {}
}
