package io.coordinate.engine.state;

public interface MutableNamespaceState extends NamespaceState {

  void ensure(String ns, long now);

  /** Removes every record of the namespace (but its attempt sequence). */
  void destroy(String ns);
}
