// Kafka's default partitioner: the partition Kafka's Java producer picks for a key, which is where the app
// writes a worker's assignments and a client's replies (docs/client.md, "Reading assignments and replies").

/** Kafka's murmur2 (org.apache.kafka.common.utils.Utils.murmur2) of some bytes, as an unsigned 32-bit number. */
export function murmur2(bytes) {
  const m = 0x5bd1e995;
  const length = bytes.length;
  let h = (0x9747b28c ^ length) >>> 0;
  const full = length & ~3;
  for (let i = 0; i < full; i += 4) {
    let k = bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
  }
  const rest = length - full;
  if (rest >= 3) h ^= bytes[full + 2] << 16;
  if (rest >= 2) h ^= bytes[full + 1] << 8;
  if (rest >= 1) {
    h ^= bytes[full];
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h >>> 0;
}

/** The partition of a string key among `partitions`: murmur2 of its UTF-8 bytes, made positive, modulo the count. */
export function partitionFor(key, partitions) {
  return (murmur2(Buffer.from(key, 'utf8')) & 0x7fffffff) % partitions;
}
