package io.coordinate.examples;

import io.coordinate.client.CoordinateClient;
import io.coordinate.client.WorkSpec;
import io.coordinate.client.WorkUnit;
import io.coordinate.client.Worker;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The example of docs/client.md: defines a spec, adds 100 units, works them with a {@link Worker} of 4 handlers that
 * hash each unit's text, and prints what the app counts. Run it against {@code bin/coordinate dev}:
 * {@code java -cp "target/classes:$(cat target/runtime-classpath.txt)" io.coordinate.examples.HashExample}.
 */
public final class HashExample {

    private HashExample() {}

    public static void main(String[] args) throws Exception {
        String bootstrap = args.length > 0 ? args[0] : "127.0.0.1:9092";
        System.out.println("finished " + run(bootstrap, "example") + " units");
    }

    /** Runs the example in {@code namespace}; answers how many units the worker finished. */
    public static long run(String bootstrap, String namespace) throws Exception {
        // begin example
        try (CoordinateClient client = CoordinateClient.builder()
                .bootstrapServers(bootstrap)
                .namespace(namespace)
                .build()) {
            client.setWorkSpec(WorkSpec.named("hashes").maxRetries(3).build()).join();

            List<WorkUnit> units = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                units.add(WorkUnit.named("text-" + i)
                        .data(Map.of("text", "hello " + i))
                        .build());
            }
            System.out.println(
                    "added " + client.addWorkUnits("hashes", units).join().added() + " units");

            Worker worker = Worker.builder(client)
                    .workSpecs("hashes")
                    .concurrency(4)
                    .handler(attempt -> {
                        String text = (String) attempt.data().get("text");
                        byte[] digest =
                                MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
                        return Map.of("sha256", String.format("%064x", new BigInteger(1, digest)));
                    })
                    .build()
                    .start();
            try {
                while (worker.finished() < 100) { // finishes the app has applied
                    Thread.sleep(100);
                }
                return worker.finished();
            } finally {
                worker.close(); // lets running handlers end, then deactivates the worker
            }
        }
        // end example
    }
}
