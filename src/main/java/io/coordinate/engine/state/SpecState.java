package io.coordinate.engine.state;

import io.coordinate.engine.state.model.RateLimit;
import io.coordinate.engine.state.model.SpecSchedule;
import io.coordinate.engine.state.model.TokenBucket;
import io.coordinate.engine.state.model.WorkSpecRecord;
import java.util.List;

/** Work specs, read once per command each. */
public interface SpecState {

    WorkSpecRecord get(String ns, String name);

    /** Every spec of the namespace, in name order (a namespace has few specs; units are what is many). */
    List<WorkSpecRecord> list(String ns);

    /**
     * The spec's next free retry slot, epoch millis: no retry of its policy's {@code max_per_minute} comes due before
     * it (docs/reference.md#retries). 0 when none was taken yet.
     */
    long nextRetrySlot(String ns, String spec);

    /** The spec's cron schedule with its next fire time (docs/reference.md#schedules); null when it has none. */
    SpecSchedule schedule(String ns, String spec);

    /**
     * The token bucket of the spec's {@code rate_limit} (docs/reference.md#rate-limits) as last stored, full at
     * {@code now} when none is.
     */
    TokenBucket rateLimitTokens(String ns, String spec, RateLimit limit, long now);

    /**
     * The token bucket of one group of the spec's {@code group_rate_limit} (docs/reference.md#concurrency-groups) as
     * last stored, full at {@code now} when none is.
     */
    TokenBucket groupRateLimitTokens(String ns, String spec, String group, RateLimit limit, long now);
}
