package io.coordinate.engine.state.model;

/** A namespace exists from its first accepted command until {@code destroy_namespace}. */
public record NamespaceRecord(String name, long createdAt) {}
