package io.coordinate.engine.state;

import io.coordinate.engine.state.model.WorkSpecRecord;

public interface MutableSpecState extends SpecState {

    void write(String ns, WorkSpecRecord before, WorkSpecRecord after);

    /** Deletes a spec with all its units, their attempts and every index entry of them. */
    void delete(String ns, WorkSpecRecord spec);
}
