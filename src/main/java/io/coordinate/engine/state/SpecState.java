package io.coordinate.engine.state;

import io.coordinate.engine.state.model.WorkSpecRecord;
import java.util.List;

/** Work specs, read once per command each. */
public interface SpecState {

    WorkSpecRecord get(String ns, String name);

    /** Every spec of the namespace, in name order (a namespace has few specs; units are what is many). */
    List<WorkSpecRecord> list(String ns);
}
