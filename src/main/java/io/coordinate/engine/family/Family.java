package io.coordinate.engine.family;

import static io.coordinate.engine.state.model.UnitStatus.BLOCKED;
import static io.coordinate.engine.state.model.UnitStatus.CANCELLED;
import static io.coordinate.engine.state.model.UnitStatus.FAILED;
import static io.coordinate.engine.state.model.UnitStatus.FINISHED;
import static io.coordinate.engine.state.model.UnitStatus.PENDING;
import static io.coordinate.engine.state.model.UnitStatus.WAITING;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.FamilyState;
import io.coordinate.engine.state.MutableAttemptState;
import io.coordinate.engine.state.MutableUnitState;
import io.coordinate.engine.state.SpecState;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.ChildState;
import io.coordinate.engine.state.model.UnitFamily;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Conveyor's job trees (docs/children-and-heirs.md#the-rules): children parked while their parent's attempt runs and
 * released when it finishes; a parent {@code waiting} until its open children are finished; heirs {@code blocked} until
 * their predecessor finishes; failures going up to parents and along to heirs.
 *
 * <p>A unit reaching {@code finished} or {@code failed} is put on a work queue; the queue, not recursion, carries
 * the cascade (chaining, heirs, the parent's bookkeeping, which may settle the parent, ...), so a deep tree or a
 * long chain of heirs cannot overflow the stack. Each step reads only the units it changes; a parent's open children
 * are a counter (the unit transitions keep it), never a scan. One instance serves one command (or one time-step
 * item) of one namespace; every public method leaves the queue empty.
 */
public final class Family {

    /** Runs {@code then} chaining for a unit that has just finished (docs/reference.md#finish_attempt). */
    @FunctionalInterface
    public interface Chainer {
        void chain(WorkUnitRecord unit, JsonNode data);
    }

    /** A unit that has just finished or failed, with what its cascade needs. */
    private record Settled(WorkUnitRecord unit, JsonNode data, UnitRef parentToTell) {}
    // UnitTransitions and FamilyPlacement, part of the cascade, write through the same modules
    final MutableUnitState units;
    final MutableAttemptState attempts;
    final FamilyState links;
    private final SpecState specs;
    private final String ns;
    private final long now;
    private final Chainer chainer;
    private final ArrayDeque<Settled> queue = new ArrayDeque<>();
    private final Map<String, Long> purgeTimes = new HashMap<>();
    private final FamilyHeirs heirs;

    /** {@code links}: the trees' children and heirs; {@code specs}: where a settled unit's {@code retention} is. */
    public Family(
            MutableUnitState units,
            MutableAttemptState attempts,
            FamilyState links,
            SpecState specs,
            String ns,
            long now,
            Chainer chainer) {
        this.units = units;
        this.attempts = attempts;
        this.links = links;
        this.specs = specs;
        this.ns = ns;
        this.now = now;
        this.chainer = chainer;
        this.heirs = new FamilyHeirs(this);
    }

    public String namespace() {
        return ns;
    }

    public long now() {
        return now;
    }

    /** A unit with no running attempt: blocked by its family, else delayed or available. */
    public UnitStatus restingStatus(WorkUnitRecord unit) {
        if (unit.family() != null && unit.family().blocks()) {
            return BLOCKED;
        }
        return UnitTransitions.restingStatus(unit.notBefore(), now);
    }

    // --- attempts ending ---

    /**
     * The unit's active attempt finished: its parked children are released and become open; the unit waits for
     * them, or is finished at once (and its cascade runs). A child that had failed while parked fails it.
     *
     * @param data the effective data of the finish, for chaining
     */
    WorkUnitRecord attemptFinished(WorkUnitRecord unit, JsonNode data) {
        UnitFamily family = unit.family();
        WorkUnitRecord after;
        if (family == null) {
            after = settle(unit, unit.toBuilder().status(FINISHED).build(), data);
        } else {
            UnitRef self = UnitRef.of(unit);
            List<WorkUnitRecord> parked = links.childCount(ns, self, ChildState.PARKED) == 0
                    ? List.of()
                    : links.children(ns, self, ChildState.PARKED, Integer.MAX_VALUE).stream()
                            .map(c -> units.get(ns, c))
                            .toList();
            // the parent's own move first, so that its event comes before its children's
            WorkUnitRecord failedChild = parked.stream()
                    .filter(c -> c.status().isFailure())
                    .findFirst()
                    .orElse(null);
            long open = links.childCount(ns, self, ChildState.OPEN)
                    + parked.stream().filter(c -> !c.status().isFinal()).count();
            JsonNode failure = failedChild != null ? traceback("child", failedChild) : family.failure();
            if (failure != null) {
                after = settle(
                        unit,
                        unit.toBuilder()
                                .status(FAILED)
                                .family(family.toBuilder().failure(failure).build())
                                .build(),
                        null);
            } else if (open > 0) {
                after = unit.toBuilder().status(WAITING).build();
                units.finish(ns, unit, after);
            } else {
                after = settle(unit, unit.toBuilder().status(FINISHED).build(), data);
            }
            parked.forEach(this::release);
        }
        drain();
        return after;
    }

    /**
     * A replicated unit's round found its canonical result (docs/replication.md): {@code unit} has the canonical replica
     * as its active attempt, and finishes as if that attempt had just finished (children released, heirs, chaining on
     * {@code data}). Every child added while its replicas ran was parked under the unit, not under one replica.
     */
    public WorkUnitRecord replicatedFinished(WorkUnitRecord unit, JsonNode data) {
        return attemptFinished(unit, data);
    }

    /** A replicated unit's round failed (an error bit): the unit fails, with its heirs and parent. */
    public WorkUnitRecord replicatedFailed(WorkUnitRecord unit) {
        return attemptFailed(unit);
    }

    /** The unit's active attempt failed: the unit fails; the children parked during that attempt go. */
    WorkUnitRecord attemptFailed(WorkUnitRecord unit) {
        UnitFamily family = unit.family();
        // its own attempt's failure: the attempt's data tells why, not an earlier failure of a child
        WorkUnitRecord failed = unit.toBuilder()
                .status(FAILED)
                .family(family == null ? null : family.toBuilder().failure(null).build())
                .build();
        WorkUnitRecord after = settle(unit, failed, null);
        if (family != null && unit.activeAttempt() != null) {
            deleteTrees(links.childrenParkedUnder(ns, UnitRef.of(unit), unit.activeAttempt()));
        }
        drain();
        return after;
    }

    /**
     * The unit's active attempt was retried or expired ({@code released} is the unit without it): the children
     * parked during that attempt go (the next attempt adds them again).
     */
    void attemptReleased(WorkUnitRecord unit, WorkUnitRecord released) {
        UnitFamily family = unit.family();
        if (family == null) {
            units.release(ns, unit, released);
            return;
        }
        if (family.failure() != null) {
            settle(unit, released.toBuilder().status(FAILED).build(), null); // a child failed while it ran
        } else {
            units.release(
                    ns,
                    unit,
                    released.toBuilder().status(restingStatus(released)).build());
        }
        if (unit.activeAttempt() != null) {
            deleteTrees(links.childrenParkedUnder(ns, UnitRef.of(unit), unit.activeAttempt()));
        }
        drain();
    }

    /** {@code cancel_work_units} of a unit that is not settled; see {@link FamilyCancel#cancel}. */
    public AttemptRecord cancel(WorkUnitRecord unit) {
        AttemptRecord cancelled = FamilyCancel.cancel(this, unit);
        drain();
        return cancelled;
    }

    // --- adding, resetting, deleting ---

    /** {@code add_work_units} of a unit in a job tree; see {@link FamilyPlacement#add}. Rejects before writing. */
    public WorkUnitRecord add(WorkUnitRecord before, WorkUnitRecord candidate, UnitRef parent, UnitRef predecessor) {
        WorkUnitRecord after = new FamilyPlacement(this).add(before, candidate, parent, predecessor);
        drain();
        return after;
    }

    /** {@code reset_work_units} of a unit with a family; see {@link FamilyPlacement#reset}. */
    public void reset(UnitRef ref) {
        new FamilyPlacement(this).reset(ref);
        drain();
    }

    /**
     * Deletes the unit with its whole tree of children. Its heirs, and those of every deleted unit, outside the
     * tree lose their predecessor: one still waiting for it fails. A parent outside the tree that was waiting only
     * for the deleted unit finishes. Returns how many units were deleted (0: it was gone already).
     */
    public int delete(UnitRef ref) {
        int deleted = deleteTrees(List.of(ref));
        drain();
        return deleted;
    }

    // --- the cascade ---

    /**
     * Writes a unit's move to {@code finished} or {@code failed} and queues its cascade. An open child is closed
     * in the same write, and its parent is told once the unit's own chaining and heirs are done.
     */
    WorkUnitRecord settle(WorkUnitRecord before, WorkUnitRecord after, JsonNode data) {
        after = after.toBuilder().purgeAt(purgeTime(after.spec())).build();
        UnitFamily family = after.family();
        UnitRef parentToTell = null;
        if (family != null && family.childState() == ChildState.OPEN) {
            after = after.toBuilder()
                    .family(family.toBuilder()
                            .childState(ChildState.CLOSED)
                            .parkedUnder(null)
                            .build())
                    .build();
            parentToTell = family.parent();
        }
        if (before == null) {
            units.add(ns, after); // a new unit failed at once
        } else if (after.status() == FAILED) {
            units.fail(ns, before, after);
        } else if (after.status() == CANCELLED) {
            units.cancel(ns, before, after);
        } else {
            units.finish(ns, before, after);
        }
        queue.add(new Settled(after, data, parentToTell));
        return after;
    }

    private void drain() {
        while (!queue.isEmpty()) {
            Settled settled = queue.poll();
            WorkUnitRecord unit = settled.unit();
            UnitRef self = UnitRef.of(unit);
            boolean failed = unit.status().isFailure();
            if (!failed) {
                chainer.chain(unit, settled.data() != null ? settled.data() : attemptData(unit));
            }
            if (unit.family() != null) {
                if (failed) {
                    heirs.fail(self, traceback("predecessor", unit));
                } else {
                    heirs.release(self);
                }
            }
            if (settled.parentToTell() != null) {
                childClosed(settled.parentToTell(), unit, failed);
            }
        }
    }

    /**
     * An open child finished, failed or was cancelled (or was deleted: {@code child} as it was): the parent may finish,
     * or fail.
     */
    void childClosed(UnitRef parentRef, WorkUnitRecord child, boolean failed) {
        WorkUnitRecord parent = units.get(ns, parentRef);
        if (parent == null || parent.status().isFinal()) {
            return;
        }
        UnitFamily family = parent.family() == null ? UnitFamily.EMPTY : parent.family();
        if (failed) {
            JsonNode failure = traceback("child", child);
            if (parent.status() != PENDING) {
                settle(
                        parent,
                        parent.toBuilder()
                                .status(FAILED)
                                .family(family.toBuilder().failure(failure).build())
                                .build(),
                        null);
            } else if (family.failure() == null) {
                // its attempt runs (it was reset while waiting): it fails when that attempt ends
                units.relink(
                        ns,
                        parent,
                        parent.toBuilder()
                                .family(family.toBuilder().failure(failure).build())
                                .build());
            }
        } else if (parent.status() == WAITING && links.childCount(ns, parentRef, ChildState.OPEN) == 0) {
            settle(
                    parent,
                    parent.toBuilder()
                            .status(family.failure() == null ? FINISHED : FAILED)
                            .build(),
                    null);
        }
    }

    /** A parked child of a parent whose attempt finished: open (and runnable) now, or closed if it failed. */
    private void release(WorkUnitRecord child) {
        if (child.status().isFinal()) {
            units.relink(
                    ns,
                    child,
                    child.toBuilder()
                            .family(child.family().toBuilder()
                                    .childState(ChildState.CLOSED)
                                    .parkedUnder(null)
                                    .build())
                            .build());
        } else {
            WorkUnitRecord open = child.toBuilder()
                    .family(child.family().toBuilder()
                            .childState(ChildState.OPEN)
                            .parkedUnder(null)
                            .build())
                    .build();
            unblock(child, open);
        }
    }

    /** A unit its parent or predecessor let go ({@code freed}): if it was blocked it rests now, else only links moved. */
    void unblock(WorkUnitRecord unit, WorkUnitRecord freed) {
        if (unit.status() == BLOCKED) {
            units.release(
                    ns, unit, freed.toBuilder().status(restingStatus(freed)).build());
        } else {
            units.relink(ns, unit, freed);
        }
    }

    /** A unit that waited for its predecessor, which failed: see {@link FamilyHeirs#failWaiting}. */
    void failWaitingHeir(WorkUnitRecord heir, UnitFamily family, JsonNode failure) {
        heirs.failWaiting(heir, family, failure);
    }

    /** Deletes the units and all their children, at any depth; see {@link FamilyDeletion}. */
    int deleteTrees(Collection<UnitRef> roots) {
        return new FamilyDeletion(this).delete(roots);
    }

    // --- helpers ---

    /** When a unit of the spec that settles now is purged: now + the spec's {@code retention}; null = never. */
    private Long purgeTime(String spec) {
        Long time = purgeTimes.get(spec);
        if (time == null && !purgeTimes.containsKey(spec)) {
            WorkSpecRecord record = specs.get(ns, spec);
            Double retention = record == null ? null : record.meta().retention();
            time = retention == null ? null : Times.plus(now, retention);
            purgeTimes.put(spec, time);
        }
        return time;
    }

    private JsonNode attemptData(WorkUnitRecord unit) {
        AttemptRecord attempt = unit.activeAttempt() == null ? null : attempts.get(ns, unit.activeAttempt());
        return attempt != null ? attempt.data() : unit.data();
    }

    /** The failure a unit's failed or cancelled {@code role} (its child, its predecessor) passes on. */
    static JsonNode traceback(String role, WorkUnitRecord unit) {
        String outcome = unit.status() == CANCELLED ? " was cancelled" : " failed";
        return traceback(role + " " + UnitRef.of(unit) + outcome);
    }

    static JsonNode traceback(String text) {
        ObjectNode data = Json.object();
        data.put("traceback", text);
        return data;
    }
}
