package io.coordinate.examples;

import io.coordinate.client.CoordinateClient;
import io.coordinate.client.WorkSpec;
import io.coordinate.client.WorkUnit;
import io.coordinate.client.Worker;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The speed example of docs/client.md: 10,000 units, each a 1 ms handler, worked by a {@link Worker} of 8 handlers at
 * its default settings. A first round warms the JVM up; the second is timed. Run it against {@code bin/coordinate dev}:
 * {@code java -cp "target/classes:$(cat target/runtime-classpath.txt)" io.coordinate.examples.ShortUnitsExample}.
 */
public final class ShortUnitsExample {

    private static final int UNITS = 10_000;

    private ShortUnitsExample() {}

    public static void main(String[] args) throws Exception {
        String bootstrap = args.length > 0 ? args[0] : "127.0.0.1:9092";
        String namespace = "short-units-" + System.currentTimeMillis();
        System.out.printf(Locale.ROOT, "warm-up: %.2f s%n", run(bootstrap, namespace, "warm-up", UNITS));
        double seconds = run(bootstrap, namespace, "measured", UNITS);
        System.out.printf(Locale.ROOT, "%,d units in %.2f s: %,.0f units/s%n", UNITS, seconds, UNITS / seconds);
    }

    /** Adds {@code count} units to a new spec and works them: the seconds from the worker's start to the end. */
    public static double run(String bootstrap, String namespace, String spec, int count) throws Exception {
        // begin example
        try (CoordinateClient client = CoordinateClient.builder()
                .bootstrapServers(bootstrap)
                .namespace(namespace)
                .build()) {
            client.setWorkSpec(WorkSpec.named(spec).build()).join();
            List<WorkUnit> units = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                units.add(WorkUnit.named("unit-" + i).build());
            }
            client.addWorkUnits(spec, units).join();

            long started = System.nanoTime();
            Worker worker = Worker.builder(client)
                    .workSpecs(spec)
                    .concurrency(8)
                    .handler(attempt -> {
                        Thread.sleep(1); // a short job
                        return null;
                    })
                    .build()
                    .start();
            try {
                while (worker.finished() < count) {
                    Thread.sleep(10);
                }
                return (System.nanoTime() - started) / 1e9;
            } finally {
                worker.close();
            }
        }
        // end example
    }
}
