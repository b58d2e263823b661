package io.coordinate.engine.state;

import java.util.Arrays;

/** A store key as a hash-map key: the bytes (not copied: the owner must not change them), hash computed once. */
final class ByteKey {
  final byte[] bytes;
  private final int hash;

  ByteKey(byte[] bytes) {
    this.bytes = bytes;
    this.hash = Arrays.hashCode(bytes);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ByteKey key && hash == key.hash && Arrays.equals(bytes, key.bytes);
  }

  @Override
  public int hashCode() {
    return hash;
  }
}
