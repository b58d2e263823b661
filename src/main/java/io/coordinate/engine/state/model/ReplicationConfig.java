package io.coordinate.engine.state.model;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A replicated spec's settings (docs/replication.md#spec-keys), derived from its data by {@code set_work_spec} and
 * checked there for consistency. Null in {@link WorkSpecMeta} for an ordinary spec.
 *
 * @param delayBound seconds a replica may run; null = the lifetime of the request that got it
 * @param validator how results are compared; only {@code exact}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReplicationConfig(
        int minQuorum,
        int targetNresults,
        int maxErrorResults,
        int maxTotalResults,
        int maxSuccessResults,
        Double delayBound,
        String validator) {

    public static final int DEFAULT_MAX_ERROR_RESULTS = 3;
    public static final int DEFAULT_MAX_TOTAL_RESULTS = 10;
    public static final int DEFAULT_MAX_SUCCESS_RESULTS = 6;
    public static final String EXACT = "exact";

    /**
     * What a unit that still has a round under way follows once its spec is no longer replicated: a quorum of one,
     * so its next success is canonical.
     */
    public static final ReplicationConfig SINGLE = new ReplicationConfig(
            1, 1, DEFAULT_MAX_ERROR_RESULTS, DEFAULT_MAX_TOTAL_RESULTS, DEFAULT_MAX_SUCCESS_RESULTS, null, EXACT);

    /** The matches a result needs to become canonical: BOINC's {@code min_quorum/2 + 1}. */
    public int majority() {
        return minQuorum / 2 + 1;
    }
}
