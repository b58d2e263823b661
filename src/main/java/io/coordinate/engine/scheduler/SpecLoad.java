package io.coordinate.engine.scheduler;

import io.coordinate.engine.state.model.WorkSpecMeta;

/** What the scheduler knows of one spec: its metadata and how many units are available and pending now. */
public record SpecLoad(String name, WorkSpecMeta meta, long available, long pending) {}
