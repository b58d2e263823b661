package io.coordinate.engine.family;

import static io.coordinate.engine.state.model.UnitStatus.BLOCKED;
import static io.coordinate.engine.state.model.UnitStatus.FAILED;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.state.FamilyState;
import io.coordinate.engine.state.MutableUnitState;
import io.coordinate.engine.state.model.UnitFamily;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;

/**
 * A predecessor's heirs (docs/children-and-heirs.md): released when it finishes, failed when it fails. Part of
 * {@link Family}, whose queue carries what follows.
 */
final class FamilyHeirs {

    private final Family family;
    private final MutableUnitState units;
    private final FamilyState links;
    private final String ns;

    FamilyHeirs(Family family) {
        this.family = family;
        this.units = family.units;
        this.links = family.links;
        this.ns = family.namespace();
    }

    /** The predecessor finished: its heirs that waited for it are free to run. */
    void release(UnitRef predecessor) {
        if (links.heirCount(ns, predecessor) == 0) {
            return;
        }
        for (UnitRef ref : links.heirs(ns, predecessor, Integer.MAX_VALUE)) {
            WorkUnitRecord heir = units.get(ns, ref);
            if (heir != null && heir.family().awaitingPredecessor()) {
                WorkUnitRecord released = heir.toBuilder()
                        .family(heir.family().toBuilder()
                                .awaitingPredecessor(false)
                                .build())
                        .build();
                family.unblock(heir, released);
            }
        }
    }

    /** The predecessor failed: its heirs that waited for it fail too. */
    void fail(UnitRef predecessor, JsonNode failure) {
        if (links.heirCount(ns, predecessor) == 0) {
            return;
        }
        for (UnitRef ref : links.heirs(ns, predecessor, Integer.MAX_VALUE)) {
            WorkUnitRecord heir = units.get(ns, ref);
            if (heir != null && heir.family().awaitingPredecessor()) {
                failWaiting(
                        heir,
                        heir.family().toBuilder().awaitingPredecessor(false).build(),
                        failure);
            }
        }
    }

    /** An heir that waited: it fails unless it ran or runs already; then only its links move. */
    void failWaiting(WorkUnitRecord heir, UnitFamily freed, JsonNode failure) {
        if (heir.status() == BLOCKED || heir.status() == UnitStatus.AVAILABLE || heir.status() == UnitStatus.DELAYED) {
            family.settle(
                    heir,
                    heir.toBuilder()
                            .status(FAILED)
                            .family(freed.toBuilder().failure(failure).build())
                            .build(),
                    null);
        } else {
            units.relink(ns, heir, heir.toBuilder().family(freed).build()); // it ran or is running: nothing to fail
        }
    }
}
