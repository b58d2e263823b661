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

  private ExitCodes() {}
}
