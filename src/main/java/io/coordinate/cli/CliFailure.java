package io.coordinate.cli;

/**
 * Ends an operator command with an {@link ExitCodes exit code} and its message as one line on stderr, never a stack
 * trace: a usage error found in the input, a refusal, an unreachable address.
 */
final class CliFailure extends RuntimeException {

    private final int exitCode;
    private final boolean transientFailure;

    CliFailure(int exitCode, String message) {
        this(exitCode, message, false);
    }

    /** @param transientFailure whether asking again later may succeed: the app was not reached, or it answered 503 */
    CliFailure(int exitCode, String message, boolean transientFailure) {
        super(message, null, false, false);
        this.exitCode = exitCode;
        this.transientFailure = transientFailure;
    }

    int exitCode() {
        return exitCode;
    }

    /** Whether the app may answer a later try: it could not be reached (restarting), or it was not ready (503). */
    boolean isTransient() {
        return transientFailure;
    }
}
