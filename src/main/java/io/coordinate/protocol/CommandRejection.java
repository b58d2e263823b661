package io.coordinate.protocol;

/**
 * A command that is not applied: malformed, or not allowed by the current state. Carries the stable
 * {@link ErrorCode} of the error reply. Thrown before any state is changed (the engine discards the
 * command's writes anyway), so a rejection never leaves partial state behind.
 */
public final class CommandRejection extends RuntimeException {

    private final ErrorCode code;

    public CommandRejection(ErrorCode code, String message) {
        // Messages quote what the command named, which may be megabytes: cut here, so no reply or dead letter grows.
        super(RecordLimit.shortMessage(message), null, false, false);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }

    public static CommandRejection badCommand(String message) {
        return new CommandRejection(ErrorCode.BAD_COMMAND, message);
    }
}
