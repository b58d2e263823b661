package io.coordinate.engine.state.codec;

import static io.coordinate.engine.state.codec.FieldMask.bit;
import static io.coordinate.engine.state.codec.FieldMask.has;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.state.model.ChildState;
import io.coordinate.engine.state.model.UnitFamily;
import io.coordinate.engine.state.model.UnitRef;
import java.io.IOException;

/**
 * The stored form of a unit's {@link UnitFamily} and the {@link UnitRef}s in it, inside a unit's value (see
 * {@link BinaryRecords}).
 */
final class FamilyCodec {

    private static final int F_PARENT = 1;
    private static final int F_PREDECESSOR = 1 << 1;
    private static final int F_CHILD_STATE = 1 << 2;
    private static final int F_PARKED_UNDER = 1 << 3;
    private static final int F_AWAITING_PREDECESSOR = 1 << 4;
    private static final int F_FAILURE = 1 << 5;

    // values() copies the array on every call
    private static final ChildState[] CHILD_STATES = ChildState.values();

    private FamilyCodec() {}

    static void writeFamily(BinaryOut out, UnitFamily family) throws IOException {
        out.byte8(bit(family.parent(), F_PARENT)
                | bit(family.predecessor(), F_PREDECESSOR)
                | bit(family.childState(), F_CHILD_STATE)
                | bit(family.parkedUnder(), F_PARKED_UNDER)
                | (family.awaitingPredecessor() ? F_AWAITING_PREDECESSOR : 0)
                | bit(family.failure(), F_FAILURE));
        writeRef(out, family.parent());
        writeRef(out, family.predecessor());
        if (family.childState() != null) {
            out.byte8(family.childState().code());
        }
        out.varlong(family.parkedUnder());
        out.json(family.failure());
    }

    static UnitFamily readFamily(BinaryIn in) throws IOException {
        int mask = in.byte8();
        UnitRef parent = has(mask, F_PARENT) ? readRef(in) : null;
        UnitRef predecessor = has(mask, F_PREDECESSOR) ? readRef(in) : null;
        ChildState childState = has(mask, F_CHILD_STATE) ? childState(in.byte8()) : null;
        Long parkedUnder = has(mask, F_PARKED_UNDER) ? in.varlong() : null;
        JsonNode failure = has(mask, F_FAILURE) ? in.json() : null;
        return new UnitFamily(parent, predecessor, childState, parkedUnder, has(mask, F_AWAITING_PREDECESSOR), failure);
    }

    private static void writeRef(BinaryOut out, UnitRef ref) throws IOException {
        if (ref != null) {
            out.string(ref.spec());
            out.string(ref.name());
        }
    }

    private static UnitRef readRef(BinaryIn in) throws IOException {
        return new UnitRef(in.string(), in.string());
    }

    private static ChildState childState(int code) throws IOException {
        for (ChildState state : CHILD_STATES) {
            if (state.code() == code) {
                return state;
            }
        }
        throw new IOException("unknown child state code " + code);
    }
}
