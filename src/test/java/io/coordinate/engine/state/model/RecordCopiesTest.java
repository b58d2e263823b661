package io.coordinate.engine.state.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A copy through a record's builder keeps every field, and each setter changes its own field only: a component that
 * the builder forgets to copy, or has no setter for, fails here. Every component gets a value of its own that is no
 * Java default, so a field left uncopied, or copied from the wrong component, shows.
 */
class RecordCopiesTest {

    static Stream<Class<? extends Record>> recordsWithBuilders() {
        return Stream.of(WorkUnitRecord.class, UnitFamily.class, ReplicationState.class, Replica.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recordsWithBuilders")
    void anUnchangedCopyKeepsEveryComponent(Class<? extends Record> type) throws Exception {
        Record record = sample(type, 0);

        Record copy = build(toBuilder(record));

        for (RecordComponent component : type.getRecordComponents()) {
            assertThat(component.getAccessor().invoke(copy))
                    .as(component.getName())
                    .isEqualTo(component.getAccessor().invoke(record));
        }
        assertThat(copy).isEqualTo(record);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recordsWithBuilders")
    void eachSetterChangesExactlyItsComponent(Class<? extends Record> type) throws Exception {
        Record record = sample(type, 0);
        RecordComponent[] components = type.getRecordComponents();
        for (int changed = 0; changed < components.length; changed++) {
            Object builder = toBuilder(record);
            Method setter = builder.getClass().getMethod(components[changed].getName(), components[changed].getType());

            assertThat(setter.invoke(builder, value(components[changed].getGenericType(), changed, true)))
                    .isSameAs(builder);
            Record copy = build(builder);

            for (int i = 0; i < components.length; i++) {
                assertThat(components[i].getAccessor().invoke(copy))
                        .as("%s after setting %s", components[i].getName(), components[changed].getName())
                        .isEqualTo(value(components[i].getGenericType(), i, i == changed));
            }
        }
    }

    @Test
    void aNewUnitIsAvailableWithNothingElseSet() {
        assertThat(WorkUnitRecord.builder("s", "u").build())
                .isEqualTo(new WorkUnitRecord(
                        "s", "u", null, 0, null, UnitStatus.AVAILABLE, null, 0, null, null, null, null, null));
    }

    @Test
    void aStartedUnitIsPendingOnItsAttemptWithOneAttemptMoreAndNoRound() {
        JsonNode data = JsonNodeFactory.instance.objectNode().put("k", 1);
        WorkUnitRecord unit = new WorkUnitRecord(
                "s",
                "u",
                data,
                2.5,
                1L,
                UnitStatus.AVAILABLE,
                null,
                2,
                UnitFamily.EMPTY,
                ReplicationState.first(),
                3L,
                4L,
                "g");

        assertThat(unit.startedOn(9))
                .isEqualTo(new WorkUnitRecord(
                        "s", "u", data, 2.5, 1L, UnitStatus.PENDING, 9L, 3, UnitFamily.EMPTY, null, 3L, 4L, "g"));
    }

    @Test
    void withoutItsPredecessorAUnitAwaitsNothing() {
        UnitRef parent = new UnitRef("s", "p");
        UnitFamily family = new UnitFamily(parent, new UnitRef("s", "q"), ChildState.OPEN, 5L, true, null);

        assertThat(family.withoutPredecessor())
                .isEqualTo(new UnitFamily(parent, null, ChildState.OPEN, 5L, false, null));
    }

    @Test
    void aRoundGainsReplicasInOrderAndChangesOneBySeq() {
        Replica first = new Replica(1, "w1", "h1", 10, null, ValidateState.INIT, null);
        Replica second = new Replica(2, "w2", "h2", 20, null, ValidateState.INIT, null);

        ReplicationState round = new ReplicationState(2, 3, 0, null, null, List.of(first)).withReplica(second);
        ReplicationState judged = round.withReplica(2, replica -> replica.withSuccess("digest"));

        assertThat(round).isEqualTo(new ReplicationState(2, 3, 0, null, null, List.of(first, second)));
        assertThat(judged)
                .isEqualTo(new ReplicationState(
                        2,
                        3,
                        0,
                        null,
                        null,
                        List.of(
                                first,
                                new Replica(2, "w2", "h2", 20, ReplicaOutcome.SUCCESS, ValidateState.INIT, "digest"))));
    }

    /** A record whose component {@code i} has {@code value(its type, offset + i, false)}. */
    private static Record sample(Class<?> type, int offset) throws Exception {
        RecordComponent[] components = type.getRecordComponents();
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            values[i] = value(components[i].getGenericType(), offset + i, false);
        }
        Class<?>[] types =
                Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
        return (Record) type.getDeclaredConstructor(types).newInstance(values);
    }

    /** A value for component {@code index}, none of them a default (null, 0, false); {@code changed} gives another. */
    private static Object value(Type type, int index, boolean changed) throws Exception {
        int seed = 2 * index + (changed ? 1 : 0) + 1;
        if (type instanceof ParameterizedType list && list.getRawType() == List.class) {
            return List.of(value(list.getActualTypeArguments()[0], seed, false));
        }
        Class<?> raw = (Class<?>) type;
        if (raw == String.class) {
            return "s" + seed;
        } else if (raw == int.class || raw == Integer.class) {
            return seed;
        } else if (raw == long.class || raw == Long.class) {
            return 1_000L + seed;
        } else if (raw == double.class || raw == Double.class) {
            return seed + 0.5;
        } else if (raw == boolean.class || raw == Boolean.class) {
            return !changed;
        } else if (raw == JsonNode.class) {
            return JsonNodeFactory.instance.objectNode().put("seed", seed);
        } else if (raw.isEnum()) {
            Object[] constants = raw.getEnumConstants();
            return constants[seed % constants.length];
        } else if (raw.isRecord()) {
            return sample(raw, 100 * seed); // its own values, apart from another seed's
        }
        throw new AssertionError("no sample value for " + type);
    }

    private static Object toBuilder(Record record) throws Exception {
        return record.getClass().getMethod("toBuilder").invoke(record);
    }

    private static Record build(Object builder) throws Exception {
        return (Record) builder.getClass().getMethod("build").invoke(builder);
    }
}
