"""The partition Kafka's Java producer picks for a key, so a client reads only the partition of its own key."""


def murmur2(data: bytes) -> int:
    """Kafka's default partitioner hash (org.apache.kafka.common.utils.Utils.murmur2), as an unsigned 32-bit value."""
    m = 0x5BD1E995
    length = len(data)
    h = (0x9747B28C ^ length) & 0xFFFFFFFF
    full = length & ~3
    for i in range(0, full, 4):
        k = int.from_bytes(data[i : i + 4], "little")
        k = (k * m) & 0xFFFFFFFF
        k ^= k >> 24
        k = (k * m) & 0xFFFFFFFF
        h = ((h * m) & 0xFFFFFFFF) ^ k
    rest = length - full
    if rest >= 3:
        h ^= data[full + 2] << 16
    if rest >= 2:
        h ^= data[full + 1] << 8
    if rest >= 1:
        h ^= data[full]
        h = (h * m) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * m) & 0xFFFFFFFF
    h ^= h >> 15
    return h


def partition(key: str, partitions: int) -> int:
    """Murmur2 of the key's UTF-8 bytes, made positive, modulo the partition count."""
    return (murmur2(key.encode("utf-8")) & 0x7FFFFFFF) % partitions
