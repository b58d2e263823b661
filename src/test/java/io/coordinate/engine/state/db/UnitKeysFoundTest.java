package io.coordinate.engine.state.db;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The keys a command found serve the unit until it is written, and only for the spec last found. */
class UnitKeysFoundTest {

    private static final byte[] UNIT = {1};
    private static final byte[] AVAILABLE = {2};

    @Test
    void keysServeUntilTheUnitIsWritten() {
        UnitKeysFound found = new UnitKeysFound();
        found.listed("ns", "spec", "u", UNIT, AVAILABLE);

        assertThat(found.get("ns", "spec", "u")).isEqualTo(new UnitKeysFound.Keys(UNIT, AVAILABLE));
        assertThat(found.get("ns", "spec", new String("u"))).isNotNull(); // by name, not by instance
        assertThat(found.get("ns", "spec", "v")).isNull();
        assertThat(found.get("ns", "other", "u")).isNull();
        assertThat(found.get("other", "spec", "u")).isNull();

        assertThat(found.take("ns", "spec", "u").unit()).isSameAs(UNIT);
        assertThat(found.get("ns", "spec", "u")).isNull();
        assertThat(found.take("ns", "spec", "u")).isNull();
    }

    @Test
    void anAttemptsEntryAddsTheUnitsKeyWithoutHidingWhatAScanFound() {
        UnitKeysFound found = new UnitKeysFound();
        found.named("ns", "spec", "u", UNIT);
        assertThat(found.get("ns", "spec", "u")).isEqualTo(new UnitKeysFound.Keys(UNIT, null));

        found.listed("ns", "spec", "w", UNIT, AVAILABLE);
        found.named("ns", "spec", "w", new byte[] {1});
        assertThat(found.get("ns", "spec", "w")).isEqualTo(new UnitKeysFound.Keys(UNIT, AVAILABLE));
    }

    @Test
    void anotherSpecForgetsTheLastOnes() {
        UnitKeysFound found = new UnitKeysFound();
        found.listed("ns", "a", "u", UNIT, AVAILABLE);
        found.named("ns", "b", "w", UNIT);

        assertThat(found.get("ns", "a", "u")).isNull();
        assertThat(found.get("ns", "b", "w")).isNotNull();
    }
}
