package io.coordinate.engine.state;

import io.coordinate.engine.state.model.ChildState;
import io.coordinate.engine.state.model.UnitRef;
import java.util.List;

/**
 * Job trees: a parent's children by state and a predecessor's heirs, with their counts. The unit transitions keep
 * them equal to each unit's {@link io.coordinate.engine.state.model.UnitFamily}; nothing writes them directly.
 */
public interface FamilyState {

    /** A parent's children in one state, in (spec, name) order (parked: by attempt first), at most {@code limit}. */
    List<UnitRef> children(String ns, UnitRef parent, ChildState state, int limit);

    /** The children parked under one attempt of the parent (0: while it had none). */
    List<UnitRef> childrenParkedUnder(String ns, UnitRef parent, long attemptSeq);

    List<UnitRef> heirs(String ns, UnitRef predecessor, int limit);

    /** How many children the unit has in this state: a counter, never a scan. */
    long childCount(String ns, UnitRef parent, ChildState state);

    long heirCount(String ns, UnitRef predecessor);
}
