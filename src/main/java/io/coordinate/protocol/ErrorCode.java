package io.coordinate.protocol;

/** Stable error codes of replies and dead-letter headers (docs/reference.md#error-codes). */
public enum ErrorCode {
    BAD_COMMAND("bad_command", true),
    MALFORMED_JSON("malformed_json", true),
    UNKNOWN_COMMAND("unknown_command", true),
    NAMESPACE_MISMATCH("namespace_mismatch", true),
    NO_WORK_SPEC_NAME("no_work_spec_name", false),
    BAD_WORK_SPEC_NAME("bad_work_spec_name", false),
    CHANGED_NAME("changed_name", false),
    NO_SUCH_WORK_SPEC("no_such_work_spec", false),
    NO_SUCH_WORK_UNIT("no_such_work_unit", false),
    NO_SUCH_ATTEMPT("no_such_attempt", false),
    NOT_PENDING("not_pending", false),
    LOST_LEASE("lost_lease", false),
    CANCELLED("cancelled", false),
    NO_SUCH_WORKER("no_such_worker", false),
    PARENT_CLOSED("parent_closed", false),
    TOO_LARGE("too_large", true),
    WRONG_PARTITION("wrong_partition", true),
    INTERNAL_ERROR("internal_error", true);

    private final String code;
    private final boolean deadLetter;

    ErrorCode(String code, boolean deadLetter) {
        this.code = code;
        this.deadLetter = deadLetter;
    }

    /** The wire name, e.g. {@code no_such_work_spec}. */
    public String code() {
        return code;
    }

    /**
     * Whether a command rejected with this code is also copied to the dead-letter topic: records that are
     * malformed (as opposed to well-formed but not allowed by the current state) need an operator's look.
     */
    public boolean deadLetter() {
        return deadLetter;
    }

    @Override
    public String toString() {
        return code;
    }
}
