package io.coordinate.client;

/**
 * The app refused a command: its reply had {@code "ok": false}. The command changed nothing. {@link #code()} is the
 * reply's stable error code ({@code no_such_work_spec}, {@code lost_lease}, ...; docs/reference.md "Error codes").
 */
public final class CommandRefusedException extends CoordinateException {

    private final String code;

    public CommandRefusedException(String code, String message) {
        super(code + ": " + message);
        this.code = code;
    }

    /** The reply's error code. */
    public String code() {
        return code;
    }
}
