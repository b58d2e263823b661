package io.coordinate.engine.state;

import io.coordinate.engine.state.model.NamespaceRecord;
import java.util.List;

/** Namespaces: each holds its own specs, units, attempts and workers. */
public interface NamespaceState {

    NamespaceRecord get(String ns);

    List<String> list();
}
