package io.coordinate.engine.state.db;

import io.coordinate.engine.state.MutableSpecState;
import io.coordinate.engine.state.codec.SpecKeys;
import io.coordinate.engine.state.codec.TimeIndexKeys;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.RateLimit;
import io.coordinate.engine.state.model.SpecSchedule;
import io.coordinate.engine.state.model.TokenBucket;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Work specs. */
final class DbSpecState implements MutableSpecState {

    private final DbContext db;
    private final DbState state;
    /**
     * Specs already read: a command reads its spec once per unit it touches. A {@link DbState} lives for one command
     * or one query, so this never outlives a change.
     */
    private final Map<SpecKey, WorkSpecRecord> read = new HashMap<>();

    DbSpecState(DbContext db, DbState state) {
        this.db = db;
        this.state = state;
    }

    @Override
    public WorkSpecRecord get(String ns, String name) {
        SpecKey key = new SpecKey(ns, name);
        WorkSpecRecord spec = read.get(key);
        if (spec == null) {
            byte[] specKey = SpecKeys.spec(ns, name);
            spec = decode(specKey, db.store.get(specKey));
            if (spec != null) {
                read.put(key, spec);
            }
        }
        return spec;
    }

    @Override
    public List<WorkSpecRecord> list(String ns) {
        return db.collect(SpecKeys.allSpecs(ns), Integer.MAX_VALUE, e -> decode(e.key(), e.value()));
    }

    private WorkSpecRecord decode(byte[] key, byte[] stored) {
        return db.decodedSpecs == null
                ? ValueCodec.decode(stored, WorkSpecRecord.class)
                : db.decodedSpecs.decode(key, stored);
    }

    @Override
    public long nextRetrySlot(String ns, String spec) {
        return ValueCodec.decodeLong(db.store.get(SpecKeys.retrySlot(ns, spec)));
    }

    @Override
    public void moveRetrySlot(String ns, String spec, long next) {
        db.writable.put(SpecKeys.retrySlot(ns, spec), ValueCodec.encodeLong(next));
    }

    @Override
    public SpecSchedule schedule(String ns, String spec) {
        return ValueCodec.decode(db.store.get(SpecKeys.schedule(ns, spec)), SpecSchedule.class);
    }

    @Override
    public void schedule(String ns, String spec, SpecSchedule schedule) {
        SpecSchedule before = schedule(ns, spec);
        if (before != null) {
            indexNextFire(ns, spec, before, false);
        }
        if (schedule == null) {
            db.writable.delete(SpecKeys.schedule(ns, spec));
        } else {
            db.writable.put(SpecKeys.schedule(ns, spec), ValueCodec.encode(schedule));
            indexNextFire(ns, spec, schedule, true);
        }
    }

    /** Derives the index entry of a stored schedule (the index rebuild). */
    void deriveSchedule(String ns, String spec, byte[] stored) {
        indexNextFire(ns, spec, ValueCodec.decode(stored, SpecSchedule.class), true);
    }

    /** The namespace's schedules leave the index of next fires, which lies outside the namespace's range. */
    void unindexSchedules(String ns) {
        List<Map.Entry<String, SpecSchedule>> schedules = db.collect(
                SpecKeys.allSchedules(ns),
                Integer.MAX_VALUE,
                e -> Map.entry(SpecKeys.scheduleSpec(e.key()), ValueCodec.decode(e.value(), SpecSchedule.class)));
        schedules.forEach(e -> indexNextFire(ns, e.getKey(), e.getValue(), false));
    }

    private void indexNextFire(String ns, String spec, SpecSchedule schedule, boolean present) {
        if (schedule.nextFire() == SpecSchedule.NEVER) {
            return;
        }
        byte[] key = TimeIndexKeys.scheduleFire(schedule.nextFire(), ns, spec);
        if (!present) {
            db.writable.delete(key);
            return;
        }
        db.writable.put(key, new byte[0]);
        if (db.hints != null) {
            db.hints.scheduleFireInserted(schedule.nextFire());
        }
    }

    @Override
    public TokenBucket rateLimitTokens(String ns, String spec, RateLimit limit, long now) {
        return ValueCodec.decodeTokens(db.store.get(SpecKeys.rateLimitTokens(ns, spec)), limit, now);
    }

    @Override
    public void takeTokens(String ns, String spec, TokenBucket bucket) {
        db.writable.put(SpecKeys.rateLimitTokens(ns, spec), ValueCodec.encodeTokens(bucket));
    }

    @Override
    public TokenBucket groupRateLimitTokens(String ns, String spec, String group, RateLimit limit, long now) {
        return ValueCodec.decodeTokens(db.store.get(SpecKeys.groupRateLimitTokens(ns, spec, group)), limit, now);
    }

    @Override
    public void takeGroupTokens(String ns, String spec, String group, TokenBucket bucket) {
        db.writable.put(SpecKeys.groupRateLimitTokens(ns, spec, group), ValueCodec.encodeTokens(bucket));
    }

    /** Forgets the specs read so far: a spec or its namespace changed. */
    void forget() {
        read.clear();
    }

    @Override
    public void write(String ns, WorkSpecRecord before, WorkSpecRecord after) {
        forget();
        db.writable.put(SpecKeys.spec(ns, after.name()), ValueCodec.encode(after));
        db.listener.specChanged(ns, before, after);
    }

    @Override
    public void delete(String ns, WorkSpecRecord spec) {
        forget();
        String name = spec.name();
        for (WorkUnitRecord unit : state.units.list(ns, name, null, Integer.MAX_VALUE)) {
            state.attempts.deleteOfUnit(ns, unit);
        }
        state.units.deleteAllOf(ns, name);
        db.writable.delete(SpecKeys.spec(ns, name));
        db.writable.delete(SpecKeys.retrySlot(ns, name));
        schedule(ns, name, null);
        db.writable.delete(SpecKeys.rateLimitTokens(ns, name));
        db.deleteRange(SpecKeys.allGroupRateLimitTokens(ns, name));
        db.listener.specChanged(ns, spec, null);
    }
}
