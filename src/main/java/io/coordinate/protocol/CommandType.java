package io.coordinate.protocol;

import java.util.HashMap;
import java.util.Map;

/** The commands, by wire name (docs/reference.md#commands). */
public enum CommandType {
    SET_WORK_SPEC("set_work_spec"),
    SET_WORK_SPEC_META("set_work_spec_meta"),
    DELETE_WORK_SPEC("delete_work_spec"),
    ADD_WORK_UNITS("add_work_units"),
    PRIORITIZE_WORK_UNITS("prioritize_work_units"),
    DELETE_WORK_UNITS("delete_work_units"),
    RESET_WORK_UNITS("reset_work_units"),
    /** Cancels replicated units (docs/reference.md#cancel_work_units): error bit 16, failed and assimilated. */
    CANCEL_WORK_UNITS("cancel_work_units"),
    REQUEST_ATTEMPTS("request_attempts"),
    RENEW_ATTEMPT("renew_attempt"),
    FINISH_ATTEMPT("finish_attempt"),
    /** Many {@code finish_attempt}s in one record: the cheap way for a busy worker to report. */
    FINISH_ATTEMPTS("finish_attempts"),
    FAIL_ATTEMPT("fail_attempt"),
    RETRY_ATTEMPT("retry_attempt"),
    EXPIRE_ATTEMPT("expire_attempt"),
    WORKER_HEARTBEAT("worker_heartbeat"),
    DEACTIVATE_WORKER("deactivate_worker"),
    DESTROY_NAMESPACE("destroy_namespace");

    private static final Map<String, CommandType> BY_WIRE_NAME = new HashMap<>();

    static {
        for (CommandType type : values()) {
            BY_WIRE_NAME.put(type.wireName, type);
        }
    }

    private final String wireName;

    CommandType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The type with this wire name, or null. */
    public static CommandType fromWireName(String name) {
        return BY_WIRE_NAME.get(name);
    }
}
