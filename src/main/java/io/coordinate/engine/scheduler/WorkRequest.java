package io.coordinate.engine.scheduler;

import java.util.List;

/**
 * The filters of a {@code request_attempts}: specs and runtimes (null or empty = any), and the worker's
 * memory ({@code availableGb <= 0} = not given).
 */
public record WorkRequest(List<String> workSpecs, List<String> runtimes, double availableGb) {

    public static final WorkRequest ANY = new WorkRequest(null, null, 0);
}
