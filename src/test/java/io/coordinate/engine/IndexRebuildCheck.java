package io.coordinate.engine;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * After every test (registered for all of them through {@code META-INF/services}): each {@link EngineHarness}
 * the test made must have indexes that a rebuild from its records reproduces. So every engine test is also a
 * test that the indexes are derived data, which the records' and indexes' stores split relies on.
 */
public final class IndexRebuildCheck implements AfterEachCallback {

    private static final ThreadLocal<List<EngineHarness>> CREATED = ThreadLocal.withInitial(ArrayList::new);

    static void created(EngineHarness harness) {
        CREATED.get().add(harness);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        List<EngineHarness> harnesses = new ArrayList<>(CREATED.get());
        CREATED.get().clear();
        if (context.getExecutionException().isPresent()) {
            return; // the test's own failure says more
        }
        harnesses.forEach(EngineHarness::assertIndexesRebuildable);
    }
}
