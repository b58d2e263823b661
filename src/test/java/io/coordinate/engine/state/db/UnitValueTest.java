package io.coordinate.engine.state.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.engine.state.codec.AttemptKeys;
import io.coordinate.engine.state.codec.UnitKeys;
import io.coordinate.engine.state.codec.UnitValue;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.storage.KeyValueStore;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** A unit's value holds its latest attempt; older attempts move to records of their own. */
class UnitValueTest {

    @Test
    void aUnitAloneIsItsRecordsValueAndWithAnAttemptBothPartsComeBack() {
        WorkUnitRecord unit = WorkUnitRecord.builder("s", "u")
                .priority(1.5)
                .status(UnitStatus.PENDING)
                .activeAttempt(7L)
                .attemptCount(1)
                .build();
        AttemptRecord attempt =
                new AttemptRecord(7, "s", "u", "w", AttemptStatus.PENDING, null, 10, 20, null, false, null);
        byte[] alone = ValueCodec.encode(unit);
        assertThat(UnitValue.of(alone, -1, null)).isSameAs(alone);
        assertThat(UnitValue.attemptSeq(alone)).isEqualTo(-1);
        assertThat(UnitValue.attempt(alone)).isNull();

        byte[] stored = UnitValue.of(alone, 7, ValueCodec.encode(attempt));

        assertThat(stored[0]).isEqualTo(UnitValue.WITH_ATTEMPT);
        assertThat(ValueCodec.decode(stored, WorkUnitRecord.class)).isEqualTo(unit);
        assertThat(UnitValue.attemptSeq(stored)).isEqualTo(7);
        assertThat(ValueCodec.decode(UnitValue.attempt(stored), AttemptRecord.class))
                .isEqualTo(attempt);
        assertThat(UnitValue.unit(stored)).isEqualTo(alone);
    }

    @Test
    void aValueOfTheFirstLayoutWithoutAVersionStillReadsAndAnUnknownVersionIsRefused() {
        WorkUnitRecord unit = WorkUnitRecord.builder("s", "u")
                .priority(1.5)
                .status(UnitStatus.PENDING)
                .activeAttempt(7L)
                .attemptCount(1)
                .build();
        AttemptRecord attempt =
                new AttemptRecord(7, "s", "u", "w", AttemptStatus.PENDING, null, 10, 20, null, false, null);
        byte[] alone = ValueCodec.encode(unit);
        byte[] held = ValueCodec.encode(attempt);
        byte[] first = ByteBuffer.allocate(1 + 4 + alone.length + 8 + held.length)
                .put(UnitValue.WITH_ATTEMPT)
                .putInt(alone.length)
                .put(alone)
                .putLong(7)
                .put(held)
                .array();
        assertThat(ValueCodec.decode(first, WorkUnitRecord.class)).isEqualTo(unit);
        assertThat(UnitValue.attemptSeq(first)).isEqualTo(7);
        assertThat(ValueCodec.decode(UnitValue.attempt(first), AttemptRecord.class))
                .isEqualTo(attempt);

        byte[] later = UnitValue.of(alone, 7, held);
        later[1] = (byte) 0x82;
        assertThatThrownBy(() -> UnitValue.attemptSeq(later))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        "a unit's value of an unknown layout version: 130 (written by a later version of the app?)");
    }

    @Test
    void replacingOnePartCopiesTheOtherAsItIsFromEitherLayout() {
        byte[] unit = ValueCodec.encode(WorkUnitRecord.builder("s", "u").build());
        byte[] changed = ValueCodec.encode(
                WorkUnitRecord.builder("s", "u").status(UnitStatus.FINISHED).build());
        byte[] held = ValueCodec.encode(
                new AttemptRecord(7, "s", "u", "w", AttemptStatus.PENDING, null, 10, 20, null, false, null));
        byte[] ended = ValueCodec.encode(
                new AttemptRecord(7, "s", "u", "w", AttemptStatus.FINISHED, null, 10, 20, 30L, false, null));
        byte[] first = ByteBuffer.allocate(1 + 4 + unit.length + 8 + held.length)
                .put(UnitValue.WITH_ATTEMPT)
                .putInt(unit.length)
                .put(unit)
                .putLong(7)
                .put(held)
                .array();
        for (byte[] stored : new byte[][] {UnitValue.of(unit, 7, held), first}) {
            assertThat(UnitValue.withUnit(stored, changed)).isEqualTo(UnitValue.of(changed, 7, held));
            assertThat(UnitValue.withAttempt(stored, 7, ended)).isEqualTo(UnitValue.of(unit, 7, ended));
        }
        assertThat(UnitValue.withUnit(unit, changed))
                .as("no attempt: the unit alone")
                .isSameAs(changed);
    }

    @Test
    void aUnitsValueWrittenInSmileByAnEarlierVersionStillReads() {
        WorkUnitRecord unit = WorkUnitRecord.builder("s", "u").build();
        byte[] smile = ValueCodec.encodeSmile(unit);
        assertThat(ValueCodec.decode(smile, WorkUnitRecord.class)).isEqualTo(unit);
        assertThat(UnitValue.attemptSeq(smile)).isEqualTo(-1);
    }

    @Test
    void aSecondAttemptMovesTheFirstToARecordOfItsOwnAndBothStillRead() {
        EngineHarness h = new EngineHarness();
        h.setSpec("{\"name\":\"s\"}");
        h.addUnits("s", "u");
        Attempt first = h.requestOne();
        KeyValueStore records = h.store().records();
        long firstSeq = Long.parseLong(first.id());
        assertThat(records.get(AttemptKeys.attempt("ns", firstSeq)))
                .as("held by the unit, no record of its own")
                .isNull();
        assertThat(UnitValue.attemptSeq(h.store().get(UnitKeys.unit("ns", "s", "u"))))
                .isEqualTo(firstSeq);
        assertThat(UnitValue.attemptSeq(records.get(UnitKeys.unit("ns", "s", "u"))))
                .as("a start writes the record")
                .isEqualTo(firstSeq);

        h.retry(first, 0).ok();
        Attempt second = h.requestOne();
        long secondSeq = Long.parseLong(second.id());

        assertThat(UnitValue.attemptSeq(h.store().get(UnitKeys.unit("ns", "s", "u"))))
                .isEqualTo(secondSeq);
        assertThat(records.get(UnitKeys.unit("ns", "s", "u")))
                .isEqualTo(h.store().get(UnitKeys.unit("ns", "s", "u")));
        assertThat(ValueCodec.decode(records.get(AttemptKeys.attempt("ns", firstSeq)), AttemptRecord.class)
                        .status())
                .isEqualTo(AttemptStatus.RETRYABLE);
        assertThat(h.reader().attempts().get("ns", firstSeq).status()).isEqualTo(AttemptStatus.RETRYABLE);
        assertThat(h.reader().attempts().get("ns", secondSeq).status()).isEqualTo(AttemptStatus.PENDING);
        assertThat(h.reader().attempts().ofUnit("ns", "s", "u"))
                .extracting(AttemptRecord::seq)
                .containsExactly(firstSeq, secondSeq);
    }
}
