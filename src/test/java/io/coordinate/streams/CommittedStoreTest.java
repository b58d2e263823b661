package io.coordinate.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's files hold only what a commit settled, with the changelog offset of that commit; the overlays are
 * read before them and lost on a close without an enforced commit, as a crash loses them.
 */
class CommittedStoreTest {

    private static final TopicPartition CHANGELOG = new TopicPartition("app-coordinate-state-changelog", 2);

    @TempDir
    Path dir;

    private final AtomicReference<Long> acknowledged = new AtomicReference<>();
    private CommittedStore store;

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    private Path storeDir;

    /** The store on its directory as a clean close left it (a close flushes RocksDB's memtables). */
    private CommittedStore open(TopicPartition changelog) {
        if (store != null) {
            store.close();
        }
        if (storeDir == null) {
            storeDir = dir.resolve("store");
        }
        store = new CommittedStore("s");
        store.open(storeDir.toFile(), Map.of(), changelog, acknowledged::get);
        return store;
    }

    /**
     * The store as kill -9 would leave it: a copy of its files taken while it is open (what the process wrote is in
     * them, its memory is not), opened.
     */
    private CommittedStore crash(TopicPartition changelog) throws IOException {
        Path image = dir.resolve("crash-" + System.nanoTime());
        try (Stream<Path> files = Files.walk(storeDir)) {
            for (Path file : files.toList()) {
                Files.copy(file, image.resolve(storeDir.relativize(file).toString()));
            }
        }
        store.close();
        storeDir = image;
        store = null;
        return open(changelog);
    }

    private static Bytes key(String text) {
        return Bytes.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] value(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    private static List<String> entries(KeyValueIterator<Bytes, byte[]> it) {
        List<String> out = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                out.add(text(kv.key.get()) + "=" + text(kv.value));
            }
        }
        return out;
    }

    @Test
    void readsSeeTheLatestWriteOfEachKeyAcrossOverlaysAndFiles() {
        open(CHANGELOG);
        store.putAll(List.of(
                KeyValue.pair(key("a"), value("1")),
                KeyValue.pair(key("b"), value("1")),
                KeyValue.pair(key("c"), value("1")),
                KeyValue.pair(key("d"), value("1"))));
        acknowledged.set(10L);
        store.flushCache();
        store.settleIfCommitted(); // in the files now
        store.put(key("b"), value("2"));
        store.delete(key("c"));
        store.flushCache(); // pending
        store.put(key("d"), value("3"));
        store.put(key("e"), value("3"));
        store.put(key("b"), null); // current

        assertThat(text(store.get(key("a")))).isEqualTo("1");
        assertThat(store.get(key("b"))).isNull();
        assertThat(store.get(key("c"))).isNull();
        assertThat(text(store.get(key("d")))).isEqualTo("3");
        assertThat(entries(store.all())).containsExactly("a=1", "d=3", "e=3");
        assertThat(entries(store.range(key("b"), key("d")))).containsExactly("d=3");
        assertThat(entries(store.range(key("a"), key("a")))).containsExactly("a=1");
        assertThat(entries(store.range(key("e"), key("a")))).isEmpty();
        assertThat(entries(store.prefixScan("d", Serdes.String().serializer()))).containsExactly("d=3");
        assertThat(store.delete(key("d"))).isEqualTo(value("3"));
        assertThat(entries(store.all())).containsExactly("a=1", "e=3");
    }

    @Test
    void aSettledCommitIsInTheFilesWithItsOffsetAndLaterWritesAreNot() throws IOException {
        open(CHANGELOG);
        store.put(key("a"), value("1"));
        store.put(key("b"), value("1"));
        acknowledged.set(41L);
        store.flushCache();
        acknowledged.set(42L); // the commit's flush waits for every acknowledgement before the transaction commits
        store.put(key("a"), value("2")); // the next call after the commit settles first
        store.delete(key("b"));
        acknowledged.set(43L);

        crash(CHANGELOG); // no enforced commit: the overlays are lost
        assertThat(store.committedOffset(CHANGELOG)).isEqualTo(42L);
        assertThat(text(store.get(key("a")))).isEqualTo("1");
        assertThat(text(store.get(key("b")))).isEqualTo("1");
    }

    @Test
    void aSealedCommitThatNeverSettledIsLostWithTheProcess() throws IOException {
        open(CHANGELOG);
        store.put(key("a"), value("1"));
        acknowledged.set(5L);
        store.flushCache();
        store.settleIfCommitted();
        store.put(key("a"), value("2"));
        acknowledged.set(6L);
        store.flushCache(); // its transaction may or may not commit: a dirty close follows, or a crash

        crash(CHANGELOG);
        assertThat(store.committedOffset(CHANGELOG)).isEqualTo(5L);
        assertThat(text(store.get(key("a")))).isEqualTo("1");
    }

    @Test
    void theProducersCommitSettlesTheThreadsStoresAtOnce() throws IOException {
        open(CHANGELOG);
        CommittedStore indexes = new CommittedStore("i");
        indexes.open(dir.resolve("indexes").toFile(), Map.of(), null, () -> null);
        try (MockProducer<byte[], byte[]> mock =
                        new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
                SettlingClientSupplier.SettlingProducer producer = new SettlingClientSupplier.SettlingProducer(mock)) {
            producer.initTransactions();
            producer.beginTransaction();
            store.put(key("a"), value("1"));
            indexes.put(key("ia"), value("1"));
            acknowledged.set(7L);
            store.flushCache();
            indexes.flushCache();
            producer.commitTransaction(); // no call to the stores after it

            crash(CHANGELOG);
            assertThat(store.committedOffset(CHANGELOG)).isEqualTo(7L);
            assertThat(entries(store.all())).containsExactly("a=1");
            indexes.close(); // a close drops what did not settle
            indexes = new CommittedStore("i");
            indexes.open(dir.resolve("indexes").toFile(), Map.of(), null, () -> null);
            assertThat(entries(indexes.all())).containsExactly("ia=1");

            producer.beginTransaction();
            store.put(key("b"), value("1"));
            store.flushCache();
            mock.commitTransactionException =
                    new ProducerFencedException("fenced"); // the commit fails: nothing settles
            assertThatThrownBy(producer::commitTransaction).isInstanceOf(ProducerFencedException.class);
            crash(CHANGELOG);
            assertThat(entries(store.all())).containsExactly("a=1");
        } finally {
            indexes.close();
        }
    }

    @Test
    void anEnforcedCommitSettlesEverythingAtTheOffsetKafkaGives() throws IOException {
        open(CHANGELOG);
        store.put(key("a"), value("1"));
        store.flushCache();
        store.put(key("b"), value("1"));
        store.commit(Map.of(CHANGELOG, 77L));

        crash(CHANGELOG);
        assertThat(store.committedOffset(CHANGELOG)).isEqualTo(77L);
        assertThat(entries(store.all())).containsExactly("a=1", "b=1");
        assertThat(store.committedOffset(new TopicPartition(CHANGELOG.topic(), 3)))
                .isNull();
    }

    @Test
    void anEmptyStoreIsRestoredFromTheStartAndOneWithDataButNoOffsetIsNotTrusted() {
        open(CHANGELOG);
        assertThat(store.committedOffset(CHANGELOG)).isEqualTo(ChangelogOffsets.NONE);
        open(null); // the same files, written as a store without changelog: data, no offset
        store.writeThrough(true);
        store.put(key("a"), value("1"));
        store.writeThrough(false);
        open(CHANGELOG);
        assertThat(store.committedOffset(CHANGELOG)).isNull();
    }

    @Test
    void restoredBatchesAreWrittenWithTheirLastOffset() {
        open(CHANGELOG);
        store.restoreBatch(List.of(record(10, "a", "1"), record(11, "b", "1"), record(12, "c", "1")));
        store.restoreBatch(List.of(record(14, "b", null), record(15, "a", "2")));

        open(CHANGELOG);
        assertThat(store.committedOffset(CHANGELOG)).isEqualTo(15L);
        assertThat(entries(store.all())).containsExactly("a=2", "c=1");
    }

    @Test
    void aCrashLosesRestoredBatchesWithTheirOffsetUntilALoggedWriteFollows() throws IOException {
        open(CHANGELOG);
        store.restoreBatch(List.of(record(10, "a", "1"), record(11, "b", "1")));
        crash(CHANGELOG);
        assertThat(store.committedOffset(CHANGELOG)).isEqualTo(ChangelogOffsets.NONE); // empty: restored again
        assertThat(entries(store.all())).isEmpty();

        store.restoreBatch(List.of(record(10, "a", "1"), record(11, "b", "1")));
        store.put(key("c"), value("1"));
        acknowledged.set(12L);
        store.flushCache();
        store.settleIfCommitted(); // logged: the restored batch must be in the files before it
        crash(CHANGELOG);
        assertThat(store.committedOffset(CHANGELOG)).isEqualTo(12L);
        assertThat(entries(store.all())).containsExactly("a=1", "b=1", "c=1");
    }

    private static ConsumerRecord<byte[], byte[]> record(long offset, String key, String value) {
        return new ConsumerRecord<>(
                CHANGELOG.topic(),
                CHANGELOG.partition(),
                offset,
                key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value(value));
    }

    @Test
    void queriesFromAnotherThreadReadTheOverlaysAndNeverSettle() throws Exception {
        open(CHANGELOG);
        store.put(key("a"), value("1"));
        store.put(key("b"), value("1"));
        acknowledged.set(3L);
        store.flushCache(); // pending: the stream thread's next call would settle it, a query's must not

        List<String> seen = CompletableFuture.supplyAsync(() -> {
                    List<String> out = entries(store.all());
                    out.add("a:" + text(store.get(key("a"))));
                    return out;
                })
                .get();
        assertThat(seen).containsExactly("a=1", "b=1", "a:1");

        crash(CHANGELOG); // the query settled nothing: the files are as before the commit
        assertThat(store.committedOffset(CHANGELOG)).isEqualTo(ChangelogOffsets.NONE);
        assertThat(entries(store.all())).isEmpty();
    }

    @Test
    void scansAndReadsMatchAModelWhateverTheOrderOfWritesScansAndCommits() throws Exception {
        open(CHANGELOG);
        Random random = new Random(7);
        NavigableMap<String, String> model = new TreeMap<>();
        long offset = 0;
        for (int op = 0; op < 2_000; op++) {
            String k = String.valueOf((char) ('a' + random.nextInt(12)));
            int choice = random.nextInt(10);
            if (choice < 5) { // a write, a deletion now and then
                String v = random.nextInt(4) == 0 ? null : "v" + op;
                store.put(key(k), v == null ? null : value(v));
                if (v == null) {
                    model.remove(k);
                } else {
                    model.put(k, v);
                }
            } else if (choice == 5) { // a commit prepared; the stream thread's next call settles it
                acknowledged.set(++offset);
                store.flushCache();
            } else {
                String from = String.valueOf((char) ('a' + random.nextInt(12)));
                String to = String.valueOf((char) (from.charAt(0) + random.nextInt(6)));
                List<String> want = new ArrayList<>();
                model.subMap(from, true, to, true).forEach((key, v) -> want.add(key + "=" + v));
                List<String> all = new ArrayList<>();
                model.forEach((key, v) -> all.add(key + "=" + v));
                if (choice < 8) { // a query from another thread: the stream thread may have scanned before or not
                    List<List<String>> seen = CompletableFuture.supplyAsync(() -> List.of(
                                    entries(store.range(key(from), key(to))),
                                    entries(store.all()),
                                    Collections.singletonList(text(store.get(key(k))))))
                            .get();
                    assertThat(seen.get(0))
                            .as("query range %s-%s at op %d", from, to, op)
                            .isEqualTo(want);
                    assertThat(seen.get(1)).as("query all at op %d", op).isEqualTo(all);
                    assertThat(seen.get(2).get(0)).as("query get at op %d", op).isEqualTo(model.get(k));
                } else {
                    assertThat(entries(store.range(key(from), key(to))))
                            .as("range %s-%s at op %d", from, to, op)
                            .isEqualTo(want);
                    assertThat(text(store.get(key(k)))).as("get at op %d", op).isEqualTo(model.get(k));
                }
            }
        }
        store.commit(Map.of(CHANGELOG, ++offset));
        List<String> all = new ArrayList<>();
        model.forEach((key, v) -> all.add(key + "=" + v));
        assertThat(entries(crash(CHANGELOG).all()))
                .as("the files after an enforced commit")
                .isEqualTo(all);
    }

    @Test
    void aClosedStoreRefusesQueries() {
        open(CHANGELOG);
        CommittedStore closed = store;
        closed.close();
        store = null;
        assertThatThrownBy(() -> CompletableFuture.supplyAsync(() -> closed.get(key("a")))
                        .join())
                .hasMessageContaining("is closed");
    }

    @Test
    void writesGoStraightToTheFilesOnlyWhileAStoreWithoutChangelogIsWrittenThrough() throws IOException {
        open(null);
        store.put(key("a"), value("1"));
        store.writeThrough(true); // settles what waited, then writes through
        store.putAll(List.of(KeyValue.pair(key("b"), value("1")), KeyValue.pair(key("x"), value("1"))));
        store.delete(key("a"));
        store.delete(key("x"));
        store.writeThrough(false);
        store.put(key("c"), value("1"));
        assertThat(entries(store.all())).containsExactly("b=1", "c=1");
        store.flushCache();
        store.settleIfCommitted();
        store.put(key("d"), value("1"));

        crash(null);
        assertThat(entries(store.all())).containsExactly("b=1", "c=1");
        open(CHANGELOG);
        assertThatThrownBy(() -> store.writeThrough(true)).isInstanceOf(IllegalStateException.class);
    }
}
