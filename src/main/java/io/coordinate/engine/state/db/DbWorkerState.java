package io.coordinate.engine.state.db;

import io.coordinate.engine.state.MutableWorkerState;
import io.coordinate.engine.state.codec.Keys;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.WorkerRecord;
import java.util.List;
import java.util.Objects;

/** Workers, with the index of each parent's children. */
final class DbWorkerState implements MutableWorkerState {

  private final DbContext db;

  DbWorkerState(DbContext db) {
    this.db = db;
  }

  @Override
  public WorkerRecord get(String ns, String name) {
    return ValueCodec.decode(db.store.get(Keys.worker(ns, name)), WorkerRecord.class);
  }

  @Override
  public List<WorkerRecord> list(String ns) {
    return db.collect(Keys.allWorkers(ns), Integer.MAX_VALUE, e -> ValueCodec.decode(e.value(), WorkerRecord.class));
  }

  @Override
  public List<WorkerRecord> list(String ns, String afterName, int limit) {
    byte[] prefix = Keys.allWorkers(ns);
    byte[] from = afterName == null ? prefix : DbContext.successor(Keys.worker(ns, afterName));
    return db.collect(from, Keys.prefixEnd(prefix), limit, e -> ValueCodec.decode(e.value(), WorkerRecord.class));
  }

  @Override
  public List<String> children(String ns, String parent) {
    byte[] prefix = Keys.workerChildren(ns, parent);
    return db.collect(prefix, Integer.MAX_VALUE, e -> Keys.stringAfter(e.key(), prefix));
  }

  @Override
  public void write(String ns, WorkerRecord before, WorkerRecord after) {
    String oldParent = before == null ? null : before.parent();
    if (!Objects.equals(oldParent, after.parent())) {
      if (oldParent != null) {
        db.writable.delete(Keys.workerChild(ns, oldParent, after.name()));
      }
      if (after.parent() != null) {
        db.writable.put(Keys.workerChild(ns, after.parent(), after.name()), ValueCodec.EMPTY);
      }
    }
    db.writable.put(Keys.worker(ns, after.name()), ValueCodec.encode(after));
    db.listener.workerChanged(ns, before, after);
  }
}
