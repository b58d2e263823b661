package io.coordinate.engine.state;

import java.util.List;

/**
 * One spec's concurrency groups as a request reads them (docs/reference.md#concurrency-groups): the groups with
 * available units by priority, each group's available units, its pending count, and where the spec's round robin
 * stands. Every read is a seek and a short scan, whatever the number of groups and units.
 */
public interface GroupQueue {

    /** A group with {@code available} units of {@code priority}. */
    record ReadyGroup(double priority, String group, long available) {}

    /** The best priority below {@code below} (null: of all) at which a group has available units; null if none. */
    Double readyPriority(Double below);

    /** The groups with available units of {@code priority}, in name order after {@code after} (null: the first). */
    List<ReadyGroup> ready(double priority, String after, int limit);

    /** The group's available units of {@code priority}, in name order after {@code afterName} (null: the first). */
    List<String> units(String group, double priority, String afterName, int limit);

    /** How many of the group's units are pending. */
    long pending(String group);

    /** How many groups have {@code cap} pending units or more: a scan of the groups with pending units. */
    long atCap(long cap);

    /** The group the spec's last request took a unit from ({@code ""}: a unit without a group); null: none yet. */
    String cursor();
}
