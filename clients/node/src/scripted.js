// The scripted handler of the conformance runner (bin/conformance.js): a unit's data says what each run of it
// in this process does, so that one scenario, written once as data, drives every language's worker the same.

import { FailAttempt, RetryLater } from './errors.js';

const FINISH = { outcome: 'finish' };

/**
 * A handler that plays `data.script[min(r, length - 1)]` on run r (0, 1, ...) of a unit in this process; no
 * script is `{"outcome": "finish"}`. A step may `sleep_ms` first (ended early by a cancellation, or by
 * `stopping`, the runner's stop), then report `progress: [fraction, message]`, then ends by its `outcome`:
 * `finish` (returns `result`, default `{"ok": true}`), `fail` (a plain error: retryable), `fail_permanent`
 * (FailAttempt with data `result` if given), `retry_later` (RetryLater after `delay_ms`), or `hang` (waits
 * until cancelled or stopped).
 *
 * @param {AbortSignal} stopping aborted when the runner stops: a sleep or hang then ends, and the unit is released
 */
export function scriptedHandler(stopping) {
  const runs = new Map();
  return async (attempt) => {
    const key = JSON.stringify([attempt.spec, attempt.unit]);
    const run = runs.get(key) ?? 0;
    runs.set(key, run + 1);
    const script = Array.isArray(attempt.data?.script) && attempt.data.script.length > 0 ? attempt.data.script : [FINISH];
    const step = script[Math.min(run, script.length - 1)];
    if (step.sleep_ms > 0) await sleep(step.sleep_ms, attempt.signal, stopping);
    if (Array.isArray(step.progress)) attempt.progress(step.progress[0] ?? null, step.progress[1] ?? null);
    const message = step.message ?? `scripted ${step.outcome}`;
    switch (step.outcome ?? 'finish') {
      case 'finish':
        return step.result ?? { ok: true };
      case 'fail':
        throw new Error(message);
      case 'fail_permanent':
        throw new FailAttempt(message, step.result ?? null);
      case 'retry_later':
        throw new RetryLater(message, step.delay_ms ?? 0);
      case 'hang':
        await sleep(Infinity, attempt.signal, stopping);
        throw new Error('hang ended');
      default:
        throw new FailAttempt(`unknown outcome ${JSON.stringify(step.outcome)}`);
    }
  };
}

/** Waits `ms` (Infinity: for ever); rejects as soon as one of the signals is aborted. */
export function sleep(ms, ...signals) {
  return new Promise((resolve, reject) => {
    const aborted = signals.find((signal) => signal?.aborted);
    if (aborted) {
      reject(aborted.reason ?? new Error('aborted'));
      return;
    }
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : null;
    const onAbort = (event) => done(event.target.reason ?? new Error('aborted'));
    signals.forEach((signal) => signal?.addEventListener('abort', onAbort));
    function done(error) {
      clearTimeout(timer);
      signals.forEach((signal) => signal?.removeEventListener('abort', onAbort));
      if (error) reject(error);
      else resolve();
    }
  });
}
