"""The partition of a key must be the one Kafka's Java producer picks, or a client reads the wrong partition."""

import pytest

from coordinate.partitioner import murmur2, partition

# Utils.murmur2 and Utils.toPositive(...) % 6 of kafka-clients, computed with jshell on this project's classpath.
JAVA = [
    ("", 275646681, 3),
    ("a", -1563381124, 4),
    ("ab", 316155434, 2),
    ("abc", 479470107, 3),
    ("abcd", -1323649548, 2),
    ("client-3f2a9c1e-0d4b-4d8e-9a55-0c1b2d3e4f50", 1146329294, 2),
    ("worker-é-ü", -1834984865, 3),
    ("demo", 684571411, 1),
    ("host-1234-ab12cd", 762942834, 0),
]


@pytest.mark.parametrize("key,java_hash,java_partition", JAVA)
def test_murmur2_and_partition_match_kafkas_java_producer(key, java_hash, java_partition):
    assert murmur2(key.encode("utf-8")) == java_hash & 0xFFFFFFFF
    assert partition(key, 6) == java_partition
