package io.coordinate.query;

import io.coordinate.engine.state.codec.Keys;
import io.coordinate.engine.state.store.ReadableKeyValueStore;
import io.coordinate.engine.state.StateReader;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.WorkerRecord;
import java.util.Arrays;
import java.util.List;

/** The engine's {@link StateReader} plus the bounded scans that only queries need (pages of workers). */
final class QueryReader extends StateReader {

  QueryReader(ReadableKeyValueStore store) {
    super(store);
  }

  /** Workers in name order, strictly after {@code afterName} (null = from the start), at most {@code limit}. */
  List<WorkerRecord> workers(String ns, String afterName, int limit) {
    byte[] prefix = Keys.allWorkers(ns);
    // Names are stored as UTF-8 plus a terminator, so key + 0x00 is the smallest key after that name.
    byte[] from = afterName == null ? prefix : successor(Keys.worker(ns, afterName));
    return collect(from, Keys.prefixEnd(prefix), limit, e -> ValueCodec.decode(e.value(), WorkerRecord.class));
  }

  private static byte[] successor(byte[] key) {
    return Arrays.copyOf(key, key.length + 1);
  }
}
