package io.coordinate.engine.state;

public interface MutableNamespaceState extends NamespaceState {

    /** Creates the namespace's record unless it exists; true when it was created. */
    boolean ensure(String ns, long now);

    /** Removes every record of the namespace (but its attempt sequence). */
    void destroy(String ns);
}
