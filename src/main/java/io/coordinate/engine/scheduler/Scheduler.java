package io.coordinate.engine.scheduler;

import io.coordinate.engine.state.model.WorkSpecMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Chooses the spec a request gets work from (docs/reference.md#how-the-spec-is-chosen): filter, keep the highest
 * priority, then draw one at random with probability proportional to {@code weight·(P+1) − W·pending}, which steers the
 * specs' shares of pending units toward the ratio of their weights. Pure: the caller gives the loads.
 */
public final class Scheduler {

    private Scheduler() {}

    /** The chosen spec, or null when no spec has work for this request. */
    public static SpecLoad choose(List<SpecLoad> specs, WorkRequest request, long now, RandomGenerator random) {
        List<SpecLoad> candidates = new ArrayList<>();
        double topPriority = Double.NEGATIVE_INFINITY;
        for (SpecLoad spec : specs) {
            if (isCandidate(spec, request, now)) {
                candidates.add(spec);
                topPriority = Math.max(topPriority, spec.meta().priority());
            }
        }
        final double top = topPriority;
        candidates.removeIf(spec -> spec.meta().priority() < top);
        if (candidates.isEmpty()) {
            return null;
        }
        if (candidates.size() == 1) {
            return candidates.get(0);
        }
        double totalWeight = 0;
        double totalPending = 0;
        for (SpecLoad spec : candidates) {
            totalWeight += spec.meta().weight();
            totalPending += spec.pending();
        }
        double[] scores = new double[candidates.size()];
        double sum = 0;
        for (int i = 0; i < scores.length; i++) {
            SpecLoad spec = candidates.get(i);
            double score = spec.meta().weight() * (totalPending + 1) - totalWeight * spec.pending();
            scores[i] = score > 0 ? score : 0;
            sum += scores[i];
        }
        double draw = random.nextDouble() * sum;
        for (int i = 0; i < scores.length; i++) {
            if (scores[i] > 0) {
                draw -= scores[i];
                if (draw < 0) {
                    return candidates.get(i);
                }
            }
        }
        for (int i = scores.length - 1; i >= 0; i--) { // rounding at the very top of the range
            if (scores[i] > 0) {
                return candidates.get(i);
            }
        }
        return null;
    }

    /** Whether the spec has work this request may take (its rate limit aside). */
    public static boolean isCandidate(SpecLoad spec, WorkRequest request, long now) {
        WorkSpecMeta meta = spec.meta();
        if (meta.paused() || meta.weight() <= 0) {
            return false;
        }
        if (request.runtimes() != null
                && !request.runtimes().isEmpty()
                && !request.runtimes().contains(meta.runtime())) {
            return false;
        }
        if (request.workSpecs() != null
                && !request.workSpecs().isEmpty()
                && !request.workSpecs().contains(spec.name())) {
            return false;
        }
        if (meta.maxRunning() > 0 && spec.pending() >= meta.maxRunning()) {
            return false;
        }
        if (request.availableGb() > 0 && meta.minGb() > request.availableGb()) {
            return false;
        }
        return spec.available() > 0 || canStartContinuous(spec, now);
    }

    /** A continuous spec with nothing available or pending may create a unit once its interval has passed. */
    public static boolean canStartContinuous(SpecLoad spec, long now) {
        WorkSpecMeta meta = spec.meta();
        return meta.continuous()
                && spec.available() == 0
                && spec.pending() == 0
                && (meta.nextContinuous() == null || now >= meta.nextContinuous());
    }
}
