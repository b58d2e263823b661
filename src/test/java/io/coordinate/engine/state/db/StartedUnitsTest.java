package io.coordinate.engine.state.db;

import io.coordinate.engine.state.codec.NamespaceKeys;
import io.coordinate.engine.state.codec.UnitKeys;
import io.coordinate.engine.state.codec.UnitValue;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.protocol.Json;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link StartedUnits} follows the command as the store's write buffer does: a command sees its own changes, a
 * commit keeps them and a discard (a rejected command) leaves the map as it was.
 */
class StartedUnitsTest {

  private static final byte[] A = UnitKeys.unit("ns", "spec", "a");
  private static final byte[] B = UnitKeys.unit("ns", "spec", "b");
  private static final byte[] X = UnitKeys.unit("ns", "other", "x");
  private static final byte[] Y = UnitKeys.unit("ns2", "spec", "y");

  private final StartedUnits started = new StartedUnits();

  @Test
  void aCommandSeesItsOwnStartsAndACommitKeepsThem() {
    started.put(A, 7);

    assertThat(started.get(A)).isEqualTo(7L);
    assertThat(started.snapshot()).as("not committed yet").isEmpty();
    started.commit();

    assertThat(started.get(A)).isEqualTo(7L);
    assertThat(started.get(B)).isNull();
    assertThat(started.snapshot()).isEqualTo(Map.of(hex(A), 7L));
  }

  @Test
  void aDiscardDropsTheCommandsStartsAndRemovals() {
    started.put(A, 1);
    started.commit();

    started.put(B, 2);
    assertThat(started.remove(A)).isEqualTo(1L);
    assertThat(started.get(A)).as("removed within the command").isNull();
    assertThat(started.remove(A)).as("removed once").isNull();
    started.discard();

    assertThat(started.get(A)).isEqualTo(1L);
    assertThat(started.get(B)).isNull();
    assertThat(started.snapshot()).isEqualTo(Map.of(hex(A), 1L));
  }

  @Test
  void aRepeatedLookupAnswersAsTheMapsDo() {
    started.put(X, 5);
    started.commit();
    assertThat(started.get(A)).isNull();
    assertThat(started.get(A.clone())).isNull();

    started.put(A, 1);
    assertThat(started.get(A)).isEqualTo(1L);
    assertThat(started.get(A.clone())).isEqualTo(1L);
    started.remove(A.clone());
    assertThat(started.get(A)).isNull();
    started.put(A, 2);
    started.commit();
    assertThat(started.get(A)).isEqualTo(2L);
    started.removeAll(UnitKeys.units("ns", "spec"));
    assertThat(started.get(A)).isNull();
    started.discard();
    assertThat(started.get(A)).isEqualTo(2L);
    assertThat(started.get(X)).isEqualTo(5L);
  }

  @Test
  void aRemovalCommitted() {
    started.put(A, 1);
    started.put(B, 2);
    started.commit();

    started.remove(A);
    started.commit();

    assertThat(started.snapshot()).isEqualTo(Map.of(hex(B), 2L));
  }

  @Test
  void removeAllForgetsThePrefixOnlyCommittedOrNot() {
    started.put(A, 1);
    started.put(X, 2);
    started.put(Y, 3);
    started.commit();
    started.put(B, 4);

    started.removeAll(UnitKeys.units("ns", "spec"));

    assertThat(started.get(A)).isNull();
    assertThat(started.get(B)).isNull();
    assertThat(started.get(X)).isEqualTo(2L);
    started.commit();
    assertThat(started.snapshot()).isEqualTo(Map.of(hex(X), 2L, hex(Y), 3L));

    started.removeAll(NamespaceKeys.namespaceData("ns"));
    started.discard();
    assertThat(started.snapshot()).as("discarded").isEqualTo(Map.of(hex(X), 2L, hex(Y), 3L));
    started.removeAll(NamespaceKeys.namespaceData("ns"));
    started.commit();
    assertThat(started.snapshot()).isEqualTo(Map.of(hex(Y), 3L));
  }

  @Test
  void aStartedUnitsValueIsItsRecordWithWhatTheStartAdded() {
    WorkUnitRecord added =
        new WorkUnitRecord("spec", "a", Json.parse("{\"k\":[1,2]}"), 2.5, null, UnitStatus.AVAILABLE, null, 1);
    AttemptRecord attempt = AttemptRecord.started(9, added, "w-é", 1_000L, 901_000L);

    byte[] value = StartedUnits.value(ValueCodec.encode(added), 9, StartedUnits.delta(attempt));

    assertThat(UnitValue.attemptSeq(value)).isEqualTo(9);
    assertThat(UnitValue.attempt(value)).isEqualTo(ValueCodec.encode(attempt));
    WorkUnitRecord unit = ValueCodec.decode(UnitValue.unit(value), WorkUnitRecord.class);
    assertThat(unit).isEqualTo(added.startedOn(9));
    assertThat(List.of(unit.status(), unit.activeAttempt(), unit.attemptCount()))
        .containsExactly(UnitStatus.PENDING, 9L, 2);
    assertThat(attempt.worker()).isEqualTo("w-é");
    assertThat(attempt.startTime()).isEqualTo(1_000L);
    assertThat(attempt.expirationTime()).isEqualTo(901_000L);
    assertThat(StartedUnits.derivable(added, added.startedOn(9), attempt)).isTrue();
    assertThat(StartedUnits.derivable(added, added.startedOn(8), attempt)).as("another attempt's").isFalse();
  }

  private static String hex(byte[] key) {
    return HexFormat.of().formatHex(key);
  }
}
