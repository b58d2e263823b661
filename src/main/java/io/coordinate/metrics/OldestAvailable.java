package io.coordinate.metrics;

import io.coordinate.engine.state.StateReader;

/**
 * Since when the oldest available unit of a spec has waited (epoch ms), or null when none is available: the source
 * of {@code coordinate_oldest_available_age_seconds}. The app passes the state's own index of waiting units
 * ({@code UnitState.oldestAvailableSince}); until that is wired, {@link #NOT_WIRED} publishes no value at all.
 */
@FunctionalInterface
public interface OldestAvailable {

  Long since(StateReader state, String ns, String spec, long now);

  /** No source: the gauge has no series rather than a made-up value. */
  OldestAvailable NOT_WIRED = (state, ns, spec, now) -> null;
}
