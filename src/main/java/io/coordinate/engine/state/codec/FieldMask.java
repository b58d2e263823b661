package io.coordinate.engine.state.codec;

/** The presence masks of the stored records: a field's bit is set when the field is not null. */
final class FieldMask {

    private FieldMask() {}

    static int bit(Object field, int bit) {
        return field == null ? 0 : bit;
    }

    static boolean has(int mask, int bit) {
        return (mask & bit) != 0;
    }
}
