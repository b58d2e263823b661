package io.coordinate.engine.state.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Keys are built at once by the stream thread, which writes the state, and by the HTTP threads, which read it for
 * queries: nothing one thread builds may reach another.
 */
class KeysAcrossThreadsTest {

    private static final int ROUNDS = 20_000;

    @Test
    void threadsBuildingDifferentKeysAtOnceEachGetTheirOwn() throws Exception {
        int threads = 4;
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                results.add(pool.submit(builder(t, start)));
            }
            for (Future<Integer> result : results) {
                assertThat(result.get())
                        .as("keys that were not the thread's own")
                        .isZero();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Builds, round after round, keys of two units of the thread's own namespace and spec (so that any key kept
     * between calls changes all the time) and counts those that differ from the ones built from scratch up front.
     */
    private static Callable<Integer> builder(int thread, CyclicBarrier start) {
        String ns = "ns-" + thread;
        String spec = "spec-" + thread;
        String[] units = {"unit-" + thread + "-a", "unit-" + thread + "-b"};
        byte[][] unitKeys = new byte[2][];
        byte[][] availableKeys = new byte[2][];
        for (int i = 0; i < 2; i++) {
            unitKeys[i] = fromScratch(ns)
                    .tag(KeyFamily.UNIT.tag())
                    .string(spec)
                    .string(units[i])
                    .toBytes();
            availableKeys[i] = fromScratch(ns)
                    .tag(KeyFamily.AVAILABLE.tag())
                    .string(spec)
                    .float64Descending(thread)
                    .string(units[i])
                    .toBytes();
        }
        byte[] worker =
                fromScratch(ns).tag(KeyFamily.WORKER.tag()).string(units[0]).toBytes();
        return () -> {
            start.await();
            int wrong = 0;
            for (int round = 0; round < ROUNDS; round++) {
                int i = round & 1;
                wrong += same(UnitKeys.unit(ns, spec, units[i]), unitKeys[i]);
                wrong += same(UnitKeys.available(ns, spec, thread, units[i]), availableKeys[i]);
                wrong += same(WorkerKeys.worker(ns, units[0]), worker);
            }
            return wrong;
        };
    }

    private static KeyWriter fromScratch(String ns) {
        return new KeyWriter().tag(KeySpace.NAMESPACE_DATA).string(ns);
    }

    private static int same(byte[] built, byte[] expected) {
        return Arrays.equals(built, expected) ? 0 : 1;
    }

    /** The classes that build keys, each module's and the prefixes they share. */
    private static final List<Class<?>> KEY_BUILDERS = List.of(
            KeyPrefixes.class,
            KeySpace.class,
            NamespaceKeys.class,
            SpecKeys.class,
            UnitKeys.class,
            AttemptKeys.class,
            WorkerKeys.class,
            FamilyKeys.class,
            TimeIndexKeys.class,
            AnswerKeys.class);

    @Test
    void keysShareNothingBetweenThreads() throws IllegalAccessException {
        for (Class<?> builder : KEY_BUILDERS) {
            for (Field field : builder.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (Modifier.isStatic(modifiers) && !field.isSynthetic()) {
                    assertThat(Modifier.isFinal(modifiers)
                                    && (field.getType().isPrimitive() || field.getType() == ThreadLocal.class))
                            .as("%s.%s is a constant or kept per thread", builder.getSimpleName(), field.getName())
                            .isTrue();
                }
            }
        }
    }

    @Test
    void eachThreadKeepsItsOwnUnitKey() throws Exception {
        byte[] mine = UnitKeys.unit("ns", "spec", "u1");
        assertThat(UnitKeys.unit("ns", "spec", "u1")).isSameAs(mine); // kept for the next call of this thread
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            byte[] theirs =
                    other.submit(() -> UnitKeys.unit("ns", "spec", "u1")).get();
            assertThat(theirs).isEqualTo(mine).isNotSameAs(mine);
            other.submit(() -> UnitKeys.unit("ns", "spec", "u2")).get();
        } finally {
            other.shutdown();
        }
        assertThat(UnitKeys.unit("ns", "spec", "u1"))
                .as("kept across the other thread's key")
                .isSameAs(mine);
    }
}
