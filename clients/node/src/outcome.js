// What a worker reports of a handler that threw: a failure, or the unit given back (docs/client.md, "When a
// handler fails").

import { FailAttempt, RetryLater } from './errors.js';

export const MAX_TRACEBACK_CHARS = 16_384;

/**
 * `{fail: {data, retryable}}` or `{giveBack: {data, delayMs, release}}` for what a handler threw. Once the worker
 * is stopping, anything gives the unit back as a release (a stop is no fault of the unit). Before, a RetryLater
 * gives it back after its delay, a FailAttempt fails it with its data as it says, and any other error fails it as
 * retryable with its stack trace.
 */
export function outcomeOf(error, stopping) {
  if (error instanceof RetryLater) {
    return { giveBack: { data: { traceback: String(error.message) }, delayMs: error.delayMs, release: stopping } };
  }
  if (stopping) {
    return { giveBack: { data: { traceback: `the worker stopped: ${describe(error)}` }, delayMs: 0, release: true } };
  }
  if (error instanceof FailAttempt) {
    return { fail: { data: error.data ?? { traceback: String(error.message) }, retryable: error.retryable === true } };
  }
  return { fail: { data: { traceback: traceback(error) }, retryable: true } };
}

export function traceback(error) {
  const text = error instanceof Error && error.stack ? error.stack : describe(error);
  return text.length <= MAX_TRACEBACK_CHARS ? text : text.slice(0, MAX_TRACEBACK_CHARS);
}

function describe(error) {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
