package io.coordinate.storage;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * A store's entries with writes that have not reached it laid over them, in key order: on equal keys the overlay
 * wins, and an overlay value that is the caller's {@code tombstone} (by identity) hides its key. A command's
 * {@link WriteBuffer} lays its writes over the store this way.
 */
final class OverlaidEntries implements KeyValueIterator {

    private final KeyValueIterator stored;
    private final Iterator<Map.Entry<byte[], byte[]>> overlay;
    private final byte[] tombstone;
    private Entry nextStored;
    private Map.Entry<byte[], byte[]> nextOverlay;
    private Entry next;

    /** @param overlay ascending keys, each once */
    OverlaidEntries(KeyValueIterator stored, Iterator<Map.Entry<byte[], byte[]>> overlay, byte[] tombstone) {
        this.stored = stored;
        this.overlay = overlay;
        this.tombstone = tombstone;
        this.nextStored = stored.hasNext() ? stored.next() : null;
        this.nextOverlay = overlay.hasNext() ? overlay.next() : null;
        advance();
    }

    private void advance() {
        next = null;
        while (next == null && (nextStored != null || nextOverlay != null)) {
            int order = nextStored == null
                    ? 1
                    : nextOverlay == null ? -1 : Arrays.compareUnsigned(nextStored.key(), nextOverlay.getKey());
            if (order < 0) {
                next = nextStored;
                nextStored = stored.hasNext() ? stored.next() : null;
            } else {
                if (order == 0) {
                    nextStored = stored.hasNext() ? stored.next() : null;
                }
                if (nextOverlay.getValue() != tombstone) {
                    next = new Entry(nextOverlay.getKey(), nextOverlay.getValue());
                }
                nextOverlay = overlay.hasNext() ? overlay.next() : null;
            }
        }
    }

    @Override
    public boolean hasNext() {
        return next != null;
    }

    @Override
    public Entry next() {
        if (next == null) {
            throw new NoSuchElementException();
        }
        Entry current = next;
        advance();
        return current;
    }

    @Override
    public void close() {
        stored.close();
    }
}
