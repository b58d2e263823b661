package io.coordinate.engine.family;

import io.coordinate.engine.state.MutableUnitState;
import io.coordinate.engine.state.model.ChildState;
import io.coordinate.engine.state.model.UnitFamily;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.WorkUnitRecord;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Deleting units with their trees of children (docs/children-and-heirs.md#reset-re-add-and-delete): heirs outside
 * the trees lose their predecessor, parents outside them a child. Part of {@link Family}, whose queue carries what
 * follows.
 */
final class FamilyDeletion {

    private final Family family;
    private final MutableUnitState units;
    private final String ns;

    FamilyDeletion(Family family) {
        this.family = family;
        this.units = family.units;
        this.ns = family.namespace();
    }

    /** Deletes the units and all their children, at any depth; returns how many went (see {@link Family#delete}). */
    int delete(Collection<UnitRef> roots) {
        if (roots.isEmpty()) {
            return 0;
        }
        List<WorkUnitRecord> doomed = new ArrayList<>();
        Set<UnitRef> seen = new HashSet<>();
        ArrayDeque<UnitRef> todo = new ArrayDeque<>(roots);
        while (!todo.isEmpty()) {
            UnitRef ref = todo.poll();
            WorkUnitRecord unit = seen.add(ref) ? units.get(ns, ref) : null;
            if (unit != null) {
                doomed.add(unit);
                if (unit.family() != null) {
                    for (ChildState childState : ChildState.values()) {
                        todo.addAll(family.links.children(ns, ref, childState, Integer.MAX_VALUE));
                    }
                }
            }
        }
        for (WorkUnitRecord unit : doomed) {
            if (unit.family() != null && family.links.heirCount(ns, UnitRef.of(unit)) > 0) {
                for (UnitRef heir : family.links.heirs(ns, UnitRef.of(unit), Integer.MAX_VALUE)) {
                    if (!seen.contains(heir)) {
                        orphan(heir, UnitRef.of(unit));
                    }
                }
            }
        }
        List<WorkUnitRecord> leftParents = new ArrayList<>();
        for (WorkUnitRecord unit : doomed) {
            units.delete(ns, unit);
            UnitFamily links = unit.family();
            if (links != null && links.childState() == ChildState.OPEN && !seen.contains(links.parent())) {
                leftParents.add(unit);
            }
        }
        for (WorkUnitRecord unit : leftParents) {
            family.childClosed(unit.family().parent(), unit, false); // it may have been the last one open
        }
        return doomed.size();
    }

    /** The heir's predecessor is being deleted: the link goes; if the heir was still waiting for it, it fails. */
    private void orphan(UnitRef ref, UnitRef predecessor) {
        WorkUnitRecord heir = units.get(ns, ref);
        if (heir == null) {
            return;
        }
        UnitFamily links = heir.family();
        if (links.awaitingPredecessor()) {
            family.failWaitingHeir(
                    heir, links.withoutPredecessor(), Family.traceback("predecessor " + predecessor + " deleted"));
        } else {
            units.relink(
                    ns,
                    heir,
                    heir.toBuilder().family(links.withoutPredecessor()).build());
        }
    }
}
