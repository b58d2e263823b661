package io.coordinate.cli;

/**
 * Ends an operator command with an {@link ExitCodes exit code} and its message as one line on stderr, never a stack
 * trace: a usage error found in the input, a refusal, an unreachable address.
 */
final class CliFailure extends RuntimeException {

  private final int exitCode;

  CliFailure(int exitCode, String message) {
    super(message, null, false, false);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}
