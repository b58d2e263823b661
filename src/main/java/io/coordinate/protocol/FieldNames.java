package io.coordinate.protocol;

import com.fasterxml.jackson.core.SerializableString;

/**
 * Encoded JSON field names that the hot writers share: the assignments ({@code request_attempts}) and the events
 * both name an attempt's unit, spec, worker and expiry. Written with {@code writeFieldName}, they skip the quoting
 * of the name each time.
 */
public final class FieldNames {

    public static final SerializableString ATTEMPT_ID = Json.encoded("attempt_id");
    public static final SerializableString EXPIRATION_TIME = Json.encoded("expiration_time");
    public static final SerializableString WORK_SPEC_NAME = Json.encoded("work_spec_name");
    public static final SerializableString WORK_UNIT_NAME = Json.encoded("work_unit_name");
    public static final SerializableString WORKER = Json.encoded("worker");

    private FieldNames() {}
}
