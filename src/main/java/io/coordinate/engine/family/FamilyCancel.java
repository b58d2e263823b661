package io.coordinate.engine.family;

import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;

/**
 * {@code cancel_work_units} of an ordinary unit (docs/reference.md#cancel_work_units). Part of {@link Family}, whose
 * queue carries what follows: a cancelled unit's parent and heirs take it as a failure
 * (docs/children-and-heirs.md#failures).
 */
final class FamilyCancel {

    private FamilyCancel() {}

    /**
     * Cancels a unit that is not finished, failed or cancelled: its pending attempt, if any, is cancelled and loses
     * its lease, the unit keeps it as its last attempt, and the children parked during it go. Returns the cancelled
     * attempt, or null when the unit had none running.
     */
    static AttemptRecord cancel(Family family, WorkUnitRecord unit) {
        String ns = family.namespace();
        AttemptRecord running = unit.status() == UnitStatus.PENDING && unit.activeAttempt() != null
                ? family.attempts.get(ns, unit.activeAttempt())
                : null;
        AttemptRecord cancelled = null;
        if (running != null && running.status() == AttemptStatus.PENDING) {
            cancelled = running.withStatus(AttemptStatus.CANCELLED, running.data(), family.now());
            family.attempts.cancel(ns, running, cancelled);
        }
        family.settle(unit, unit.toBuilder().status(UnitStatus.CANCELLED).build(), null);
        if (unit.family() != null && running != null) {
            family.deleteTrees(family.links.childrenParkedUnder(ns, UnitRef.of(unit), running.seq()));
        }
        return cancelled;
    }
}
