package io.coordinate.clients;

import io.coordinate.client.CoordinateClient;
import io.coordinate.client.Worker;
import java.time.Duration;

/** The Java {@link Worker} in this JVM with the {@link ScriptedHandler}. */
final class JavaWorker implements RunningWorker {

    /**
     * How long running handlers may go on once the worker is stopped before they are interrupted and their
     * attempts released: short, as the other kinds end a sleeping step at once (the shell worker's --grace 1).
     */
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(1);

    private final CoordinateClient client;
    private final Worker worker;

    private JavaWorker(CoordinateClient client, Worker worker) {
        this.client = client;
        this.worker = worker;
    }

    static JavaWorker start(Scenario scenario, String bootstrapServers, String namespace, String name) {
        CoordinateClient client = CoordinateClient.builder()
                .bootstrapServers(bootstrapServers)
                .namespace(namespace)
                .build();
        Worker worker = Worker.builder(client)
                .name(name)
                .workSpecs(scenario.specName())
                .concurrency(scenario.concurrency())
                .lease(Duration.ofMillis((long) (scenario.leaseSeconds() * 1000)))
                .backoff(Duration.ofMillis(100), Duration.ofMillis((long) (scenario.maxBackoffSeconds() * 1000)))
                .closeTimeout(CLOSE_TIMEOUT)
                .handler(new ScriptedHandler())
                .build()
                .start();
        return new JavaWorker(client, worker);
    }

    @Override
    public Counters stop() {
        try {
            worker.close();
        } finally {
            client.close();
        }
        return new Counters(worker.finished(), worker.failed());
    }
}
