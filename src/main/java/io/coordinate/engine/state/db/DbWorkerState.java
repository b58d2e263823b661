package io.coordinate.engine.state.db;

import io.coordinate.engine.state.MutableWorkerState;
import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.codec.WorkerKeys;
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
        return ValueCodec.decode(db.store.get(WorkerKeys.worker(ns, name)), WorkerRecord.class);
    }

    @Override
    public List<WorkerRecord> list(String ns) {
        return db.collect(
                WorkerKeys.allWorkers(ns), Integer.MAX_VALUE, e -> ValueCodec.decode(e.value(), WorkerRecord.class));
    }

    @Override
    public List<WorkerRecord> list(String ns, String afterName, int limit) {
        byte[] prefix = WorkerKeys.allWorkers(ns);
        byte[] from = afterName == null ? prefix : DbContext.successor(WorkerKeys.worker(ns, afterName));
        return db.collect(
                from, KeySpace.prefixEnd(prefix), limit, e -> ValueCodec.decode(e.value(), WorkerRecord.class));
    }

    @Override
    public List<String> children(String ns, String parent) {
        byte[] prefix = WorkerKeys.workerChildren(ns, parent);
        return db.collect(prefix, Integer.MAX_VALUE, e -> KeySpace.stringAfter(e.key(), prefix));
    }

    @Override
    public void write(String ns, WorkerRecord before, WorkerRecord after) {
        String oldParent = before == null ? null : before.parent();
        if (!Objects.equals(oldParent, after.parent())) {
            if (oldParent != null) {
                db.writable.delete(WorkerKeys.workerChild(ns, oldParent, after.name()));
            }
            if (after.parent() != null) {
                db.writable.put(WorkerKeys.workerChild(ns, after.parent(), after.name()), ValueCodec.EMPTY);
            }
        }
        db.writable.put(WorkerKeys.worker(ns, after.name()), ValueCodec.encode(after));
        db.listener.workerChanged(ns, before, after);
    }
}
