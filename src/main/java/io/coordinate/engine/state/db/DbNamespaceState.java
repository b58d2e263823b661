package io.coordinate.engine.state.db;

import io.coordinate.engine.state.MutableNamespaceState;
import io.coordinate.engine.state.codec.NamespaceKeys;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.NamespaceRecord;
import io.coordinate.engine.state.model.WorkerRecord;
import java.util.List;

/** Namespaces: their records, and the destroy that takes every record of one with it. */
final class DbNamespaceState implements MutableNamespaceState {

    private final DbContext db;
    private final DbState state;

    DbNamespaceState(DbContext db, DbState state) {
        this.db = db;
        this.state = state;
    }

    @Override
    public NamespaceRecord get(String ns) {
        return ValueCodec.decode(db.store.get(NamespaceKeys.namespace(ns)), NamespaceRecord.class);
    }

    @Override
    public List<String> list() {
        return db.collect(NamespaceKeys.allNamespaces(), Integer.MAX_VALUE, e -> NamespaceKeys.namespaceName(e.key()));
    }

    @Override
    public boolean ensure(String ns, long now) {
        byte[] key = NamespaceKeys.namespace(ns);
        if (db.store.get(key) != null) {
            return false;
        }
        db.writable.put(key, ValueCodec.encode(new NamespaceRecord(ns, now)));
        return true;
    }

    @Override
    public void destroy(String ns) {
        state.specs.forget();
        // the deadline index lies outside the namespace's range: its pending attempts leave it first
        for (WorkerRecord worker : state.workers.list(ns)) {
            for (AttemptRecord attempt : state.attempts.activeOfWorker(ns, worker.name())) {
                db.blocks.markDeadline(ns, attempt.expirationTime(), attempt.seq(), false);
            }
        }
        db.blocks.flush();
        state.specs.unindexSchedules(ns);
        db.deleteRange(NamespaceKeys.namespaceData(ns));
        db.blocks.forgetNamespace(ns);
        state.units.forgetCounts(ns, null);
        db.writable.delete(NamespaceKeys.namespace(ns));
        db.listener.namespaceDestroyed(ns);
    }
}
