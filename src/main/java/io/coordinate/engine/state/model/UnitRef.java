package io.coordinate.engine.state.model;

import java.util.Objects;

/** Names one work unit of a namespace: its spec and its name. The links of job trees are refs. */
public record UnitRef(String spec, String name) {

    public UnitRef {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(name, "name");
    }

    public static UnitRef of(WorkUnitRecord unit) {
        return new UnitRef(unit.spec(), unit.name());
    }

    /** As tracebacks and messages write it: {@code spec/name}. */
    @Override
    public String toString() {
        return spec + "/" + name;
    }
}
