// The errors of the client and the worker, as the Java client's exceptions (docs/client.md).

/** Any error of this client. */
export class CoordinateError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = this.constructor.name;
  }
}

/**
 * The app refused a command: its reply had `"ok": false`, and the command changed nothing. `code` is the reply's
 * error code (`no_such_work_spec`, `lost_lease`, ...: docs/reference.md "Error codes").
 */
export class CommandRefused extends CoordinateError {
  constructor(code, message) {
    super(`${code}: ${message}`);
    this.code = code;
    this.reason = message;
  }
}

/** No reply within the client's timeout: the command may still be applied later. */
export class CoordinateTimeout extends CoordinateError {}

/** Kafka could not be reached when connecting, or the app's topics are not there. */
export class CoordinateUnreachable extends CoordinateError {}

/**
 * Thrown by a handler to fail the attempt with data of its own rather than a stack trace. Permanent (the unit is
 * failed) unless `retryable`, when the spec's `retry` policy runs the unit again.
 */
export class FailAttempt extends Error {
  constructor(message, data = null, retryable = false) {
    super(message);
    this.name = 'FailAttempt';
    this.data = data;
    this.retryable = retryable;
  }
}

/** Thrown by a handler when the unit should run again, not before `delayMs` from now. */
export class RetryLater extends Error {
  constructor(message, delayMs = 0) {
    super(message);
    this.name = 'RetryLater';
    this.delayMs = delayMs;
  }
}
