package io.coordinate.streams;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The open {@link CommittedStore}s of each stream thread, which settle together when its producer commits. */
final class StreamThreadStores {

    private static final Map<Thread, Set<CommittedStore>> BY_THREAD = new ConcurrentHashMap<>();

    private StreamThreadStores() {}

    static void add(Thread streamThread, CommittedStore store) {
        BY_THREAD
                .computeIfAbsent(streamThread, t -> ConcurrentHashMap.newKeySet())
                .add(store);
    }

    static void remove(Thread streamThread, CommittedStore store) {
        Set<CommittedStore> stores = BY_THREAD.get(streamThread);
        if (stores != null) {
            stores.remove(store);
            BY_THREAD.computeIfPresent(streamThread, (thread, left) -> left.isEmpty() ? null : left);
        }
    }

    /**
     * The calling stream thread's producer has just committed its transaction: its stores settle the commit's writes
     * now, those without changelog (the indexes) first, so that a crash between the two leaves the records, which
     * the changelog brings up to date, behind their indexes rather than ahead.
     */
    static void settleCommitted() {
        Set<CommittedStore> stores = BY_THREAD.get(Thread.currentThread());
        if (stores == null) {
            return;
        }
        for (CommittedStore store : stores) {
            if (!store.hasChangelog()) {
                store.settleIfCommitted();
            }
        }
        for (CommittedStore store : stores) {
            if (store.hasChangelog()) {
                store.settleIfCommitted();
            }
        }
    }
}
