package io.coordinate.engine.state.db;

import io.coordinate.engine.state.CoordinateState;
import io.coordinate.engine.state.StateListener;
import io.coordinate.engine.state.StateReader;
import io.coordinate.storage.KeyValueStore;
import io.coordinate.storage.ReadableKeyValueStore;
import java.util.Objects;

/**
 * The state kept in a key-value store (RocksDB in the app), one module per aggregate. An instance lives for one
 * command or one query and owns what its modules remember meanwhile (specs read, count moves, the last scan's
 * unit keys, changed attempt blocks); the structures kept across commands are the engine's ({@link EngineState}).
 */
public final class DbState implements CoordinateState {

    private final DbContext db;
    final DbNamespaceState namespaces;
    final DbSpecState specs;
    final DbUnitState units;
    final DbAttemptState attempts;
    final DbWorkerState workers;
    final DbFamilyState family;
    final DbTimeIndexState timeIndexes;
    final DbAnswerState answers;

    private DbState(DbContext db) {
        this.db = db;
        this.namespaces = new DbNamespaceState(db, this);
        this.specs = new DbSpecState(db, this);
        this.units = new DbUnitState(db, this);
        this.attempts = new DbAttemptState(db, this);
        this.workers = new DbWorkerState(db);
        this.family = new DbFamilyState(db);
        this.timeIndexes = new DbTimeIndexState(db);
        this.answers = new DbAnswerState(db);
    }

    /** A query's read-only view of the store. */
    public static StateReader reader(ReadableKeyValueStore store) {
        return new DbState(DbContext.reader(store));
    }

    /** The state over a store, with no structures kept across commands (tests, a rebuild). */
    public static DbState over(KeyValueStore store) {
        return new DbState(DbContext.writer(store, null, null));
    }

    /**
     * @param hints where index scans may start (the engine's), or null
     * @param decodedSpecs specs decoded by earlier commands (the engine's), or null
     */
    static DbState over(KeyValueStore store, ScanHints hints, DecodedSpecs decodedSpecs) {
        return new DbState(DbContext.writer(store, hints, decodedSpecs));
    }

    @Override
    public DbNamespaceState namespaces() {
        return namespaces;
    }

    @Override
    public DbSpecState specs() {
        return specs;
    }

    @Override
    public DbUnitState units() {
        return units;
    }

    @Override
    public DbAttemptState attempts() {
        return attempts;
    }

    @Override
    public DbWorkerState workers() {
        return workers;
    }

    @Override
    public DbFamilyState family() {
        return family;
    }

    @Override
    public DbTimeIndexState timeIndexes() {
        return timeIndexes;
    }

    @Override
    public DbAnswerState answers() {
        return answers;
    }

    /** The time of the command or time step that writes through this state (see {@code DbContext.now}). */
    void setTime(long now) {
        db.now = now;
    }

    /** Who hears of every change from now on (the engine's event recorder): the transaction's to set. */
    void setListener(StateListener listener) {
        db.listener = Objects.requireNonNull(listener);
    }

    /**
     * Writes what the modules keep in memory until then (the attempt indexes' blocks, the counts' moves): before a
     * command's writes are checked and committed, and after each chunk of a rebuild.
     */
    void flush() {
        db.flushBlocks();
        units.flushCounts();
    }
}
