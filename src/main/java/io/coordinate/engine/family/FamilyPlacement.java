package io.coordinate.engine.family;

import static io.coordinate.engine.state.model.UnitStatus.FAILED;
import static io.coordinate.engine.state.model.UnitStatus.FINISHED;
import static io.coordinate.engine.state.model.UnitStatus.PENDING;
import static io.coordinate.engine.state.model.UnitStatus.WAITING;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.state.MutableUnitState;
import io.coordinate.engine.state.model.ChildState;
import io.coordinate.engine.state.model.UnitFamily;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.ErrorCode;
import java.util.HashSet;
import java.util.Set;

/**
 * Where a unit goes in its job tree when it is added, re-added or reset
 * (docs/children-and-heirs.md#reset-re-add-and-delete): parked, open or closed under its parent, waiting or not for its
 * predecessor. Part of {@link Family}, whose queue carries what follows (a unit failed at once fails its parent and
 * heirs).
 */
final class FamilyPlacement {

    /** How a unit joins its family: a new or re-added unit, or a reset one (see {@link #attach}). */
    private enum Mode {
        ADD,
        RESET
    }

    private final Family family;
    private final MutableUnitState units;
    private final String ns;

    FamilyPlacement(Family family) {
        this.family = family;
        this.units = family.units;
        this.ns = family.namespace();
    }

    /**
     * {@code add_work_units} of a unit that names a parent or predecessor, or that exists and has a family.
     * Rejects before writing anything. Links are fixed when a unit is created: a re-add may repeat them or leave
     * them out, not change them. A running or waiting unit keeps its run and takes the new data; any other is
     * placed in its family again, as a new unit would be.
     *
     * @param candidate the record a plain add would write (new data, priority and not-before)
     */
    WorkUnitRecord add(WorkUnitRecord before, WorkUnitRecord candidate, UnitRef parent, UnitRef predecessor) {
        UnitRef self = UnitRef.of(candidate);
        UnitFamily old = before == null ? null : before.family();
        if (before != null) {
            UnitRef oldParent = old == null ? null : old.parent();
            UnitRef oldPredecessor = old == null ? null : old.predecessor();
            if ((parent != null && !parent.equals(oldParent))
                    || (predecessor != null && !predecessor.equals(oldPredecessor))) {
                throw CommandRejection.badCommand("work unit " + self + " exists with other links (parent "
                        + oldParent + ", predecessor " + oldPredecessor + "): links are fixed when a unit is created; "
                        + "delete it to add it with new ones");
            }
            parent = oldParent;
            predecessor = oldPredecessor;
        }
        WorkUnitRecord parentUnit = parent == null ? null : require(parent, "parent", self);
        WorkUnitRecord predecessorUnit = predecessor == null ? null : require(predecessor, "predecessor", self);
        if (before == null && parentUnit != null && predecessorUnit != null) {
            rejectAncestor(parentUnit, predecessor, self);
        }
        WorkUnitRecord after;
        if (before != null && (before.status() == PENDING || before.status() == WAITING)) {
            after = candidate.toBuilder()
                    .activeAttempt(before.activeAttempt())
                    .status(before.status())
                    .attemptCount(before.attemptCount())
                    .family(old)
                    .build();
            units.replace(ns, before, after);
        } else if (parentUnit == null && predecessorUnit == null) {
            // only a parent or predecessor
            after = candidate.toBuilder()
                    .family(old == null ? null : old.toBuilder().failure(null).build())
                    .build();
            after = after.toBuilder().status(family.restingStatus(after)).build();
            units.replace(ns, before, after);
        } else {
            after = attach(before, candidate, parentUnit, predecessorUnit, Mode.ADD);
        }
        return after;
    }

    /**
     * {@code reset_work_units} of a unit with a family: it runs again. A dropped pending attempt takes the
     * children parked during it along; the unit is placed in its family again (see {@link #attach}).
     */
    void reset(UnitRef ref) {
        WorkUnitRecord unit = units.get(ns, ref);
        if (unit == null) {
            return; // deleted with its parent earlier in the same command
        }
        Long dropped = unit.status() == PENDING ? unit.activeAttempt() : null;
        WorkUnitRecord base = UnitTransitions.clearActiveAttempt(unit, family.now());
        UnitFamily links = unit.family();
        WorkUnitRecord parent = links.parent() == null ? null : units.get(ns, links.parent());
        WorkUnitRecord predecessor = links.predecessor() == null ? null : units.get(ns, links.predecessor());
        if (parent == null && predecessor == null) {
            WorkUnitRecord after = base.toBuilder().family(UnitFamily.EMPTY).build();
            after = after.toBuilder().status(family.restingStatus(after)).build();
            if (!after.equals(unit)) {
                units.reset(ns, unit, after);
            }
        } else {
            attach(unit, base, parent, predecessor, Mode.RESET);
        }
        if (dropped != null) {
            family.deleteTrees(family.links.childrenParkedUnder(ns, ref, dropped));
        }
    }

    /**
     * Places a unit under its parent and after its predecessor, as their statuses say:
     *
     * <ul>
     *   <li>parent running or not yet run: parked (under the running attempt, or under 0); waiting: open at once;
     *       finished or failed: {@code parent_closed} for an add — for a reset, it runs on its own under a finished
     *       parent and is parked under a failed one (released if that is reset and finishes)
     *   <li>predecessor finished: nothing to wait for; failed: an add fails at once, a reset waits (for the
     *       predecessor to be reset and finish); otherwise it waits
     * </ul>
     */
    private WorkUnitRecord attach(
            WorkUnitRecord before, WorkUnitRecord base, WorkUnitRecord parent, WorkUnitRecord predecessor, Mode mode) {
        UnitRef self = UnitRef.of(base);
        ChildState childState = null;
        Long parkedUnder = null;
        if (parent != null) {
            UnitStatus status = parent.status();
            if (mode == Mode.ADD && status.isFinal()) {
                throw new CommandRejection(
                        ErrorCode.PARENT_CLOSED,
                        "Expected parent " + UnitRef.of(parent) + " of work unit " + self + " to be open, but it is "
                                + status.wireName());
            }
            if (status == FINISHED) {
                childState = ChildState.CLOSED;
            } else if (status == WAITING) {
                childState = ChildState.OPEN;
            } else {
                childState = ChildState.PARKED;
                parkedUnder = status == PENDING && parent.activeAttempt() != null ? parent.activeAttempt() : 0L;
            }
            markAsFamily(parent);
        }
        boolean awaiting = false;
        JsonNode failure = null;
        if (predecessor != null) {
            if (predecessor.status().isFailure() && mode == Mode.ADD) {
                failure = Family.traceback("predecessor", predecessor);
            } else if (predecessor.status() != FINISHED) {
                awaiting = true;
            }
            markAsFamily(predecessor);
        }
        UnitFamily placed = new UnitFamily(
                parent == null ? null : UnitRef.of(parent),
                predecessor == null ? null : UnitRef.of(predecessor),
                childState,
                parkedUnder,
                awaiting,
                failure);
        WorkUnitRecord after = base.toBuilder().family(placed).build();
        if (failure != null) {
            return family.settle(before, after.toBuilder().status(FAILED).build(), null);
        }
        after = after.toBuilder().status(family.restingStatus(after)).build();
        if (before == null) {
            units.add(ns, after);
        } else if (!after.equals(before)) {
            if (mode == Mode.RESET) {
                units.reset(ns, before, after);
            } else {
                units.replace(ns, before, after);
            }
        }
        return after;
    }

    /** A parent or predecessor carries a family, so that its deletion and completion look after its members. */
    private void markAsFamily(WorkUnitRecord unit) {
        if (unit.family() == null) {
            units.relink(ns, unit, unit.toBuilder().family(UnitFamily.EMPTY).build());
        }
    }

    /** An ancestor waits for the unit, so the unit cannot wait for it: that would block both for ever. */
    private void rejectAncestor(WorkUnitRecord parent, UnitRef predecessor, UnitRef self) {
        Set<UnitRef> seen = new HashSet<>();
        for (WorkUnitRecord up = parent;
                up != null && seen.add(UnitRef.of(up));
                up = up.family() == null || up.family().parent() == null
                        ? null
                        : units.get(ns, up.family().parent())) {
            if (UnitRef.of(up).equals(predecessor)) {
                throw CommandRejection.badCommand("work unit " + self + " cannot have its ancestor " + predecessor
                        + " as predecessor: the ancestor waits for it to finish");
            }
        }
    }

    private WorkUnitRecord require(UnitRef ref, String role, UnitRef of) {
        WorkUnitRecord unit = units.get(ns, ref);
        if (unit == null) {
            throw new CommandRejection(
                    ErrorCode.NO_SUCH_WORK_UNIT,
                    "no work unit \"" + ref.name() + "\" in \"" + ref.spec() + "\" (the " + role + " of " + of + ")");
        }
        return unit;
    }
}
