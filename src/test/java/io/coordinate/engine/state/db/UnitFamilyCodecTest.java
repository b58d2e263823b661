package io.coordinate.engine.state.db;

import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.ChildState;
import io.coordinate.engine.state.model.UnitFamily;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import org.junit.jupiter.api.Test;

/** A unit's family is part of its stored record: whatever the value codec, it must round-trip whole. */
class UnitFamilyCodecTest {

    @Test
    void aUnitWithEveryFamilyFieldRoundTrips() {
        UnitFamily family = new UnitFamily(
                new UnitRef("jobs", "p"),
                new UnitRef("etl", "q\u0000x"),
                ChildState.PARKED,
                42L,
                true,
                json("{\"traceback\":\"child jobs/c failed\"}"));
        WorkUnitRecord unit = WorkUnitRecord.builder("steps", "c")
                .data(json("{\"k\":[1,2.5]}"))
                .priority(-3.5)
                .notBefore(1_800_000_000_000L)
                .status(UnitStatus.BLOCKED)
                .attemptCount(2)
                .family(family)
                .build();

        assertThat(ValueCodec.decode(ValueCodec.encode(unit), WorkUnitRecord.class))
                .isEqualTo(unit);
    }

    @Test
    void aPlainUnitHasNoFamilyAndAMarkerStaysAMarker() {
        WorkUnitRecord plain = WorkUnitRecord.builder("s", "u").data(json("{}")).build();
        WorkUnitRecord marked = plain.toBuilder().family(UnitFamily.EMPTY).build();

        assertThat(ValueCodec.decode(ValueCodec.encode(plain), WorkUnitRecord.class)
                        .family())
                .isNull();
        assertThat(ValueCodec.decode(ValueCodec.encode(marked), WorkUnitRecord.class)
                        .family())
                .isEqualTo(UnitFamily.EMPTY);
    }
}
