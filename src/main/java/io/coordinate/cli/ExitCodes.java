package io.coordinate.cli;

/** The exit codes of the operator commands, which scripts may rely on. */
public final class ExitCodes {

    public static final int OK = 0;
    /** The app refused the command (its reply's error code is printed), or what was asked for does not exist. */
    public static final int REFUSED = 1;
    /** The command line was wrong. */
    public static final int USAGE = 2;
    /** Kafka or the HTTP API could not be reached in time. */
    public static final int UNREACHABLE = 3;
    /**
     * {@code run}, {@code dev}: this machine does not give the app what it needs: a data dir it can write, enough open
     * files (docs/operations.md).
     */
    public static final int ENVIRONMENT = 4;
    /**
     * {@code run}, {@code dev}: no stream thread runs and none could be started in place of the failed one; the process
     * processes nothing more, and a restart (a supervisor's) is what helps.
     */
    public static final int STOPPED = 5;

    private ExitCodes() {}
}
