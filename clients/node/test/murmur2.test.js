import assert from 'node:assert/strict';
import { test } from 'node:test';
import { murmur2, partitionFor } from '../src/murmur2.js';

// Computed with Kafka's org.apache.kafka.common.utils.Utils.murmur2 (jshell on the app's class path): the key,
// the unsigned hash, the partition among 6 and among 12.
const JAVA = [
  ['', 275646681, 3, 9],
  ['a', 2731586172, 4, 4],
  ['ab', 316155434, 2, 2],
  ['abc', 479470107, 3, 3],
  ['abcd', 2971317748, 2, 8],
  ['abcde', 461995741, 1, 1],
  ['demo', 684571411, 1, 7],
  ['namespace-1', 3472206906, 4, 10],
  ['client-3f2b8c1e-9d4a-4b6e-8f00-1234567890ab', 609000834, 0, 6],
  ['host-4242-deadbeef', 3455943158, 0, 6],
  ['héllo wörld ✓', 3004120600, 2, 8],
  ['日本語のキー', 3560291590, 2, 2],
  ['w1', 557614415, 5, 11],
];

test('murmur2 and the partition of a key are those of Kafka\'s Java producer', () => {
  for (const [key, hash, of6, of12] of JAVA) {
    assert.equal(murmur2(Buffer.from(key, 'utf8')), hash, key);
    assert.equal(partitionFor(key, 6), of6, key);
    assert.equal(partitionFor(key, 12), of12, key);
  }
});
