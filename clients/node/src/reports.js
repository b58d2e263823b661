// What a Worker tells the app of its attempts' ends: finishes batched into finish_attempts, failures, attempts
// given back (released at a stop). It keeps the commands not answered yet, for the worker's last wait.

import { CommandRefused } from './errors.js';
import { outcomeOf } from './outcome.js';

/** The error code of a command on an attempt whose unit was cancelled. */
export const CANCELLED = 'cancelled';

export class AttemptReports {
  constructor(client, worker, { finishBatch, finishLingerMs, log }) {
    this.client = client;
    this.worker = worker;
    this.finishBatch = finishBatch;
    this.finishLingerMs = finishLingerMs;
    this.log = log;
    this.finishes = [];
    this.finishing = [];
    this.finishesSince = 0;
    this.pending = new Set();
    this.finished = 0;
    this.failed = 0;
    this.retried = 0;
  }

  /** A handler ended: what it returned finishes the attempt; what it threw is reported as outcomeOf says. */
  ended(attempt, result, error, failed, stopping, now) {
    if (!failed) {
      if (this.finishes.length === 0) this.finishesSince = now;
      this.finishes.push({ attemptId: attempt.id, data: resultData(result) });
      this.finishing.push(attempt);
      return;
    }
    const outcome = outcomeOf(error, stopping);
    if (outcome.giveBack) {
      this.retried++;
      this.#track(this.client.retryAttempt(attempt.id, outcome.giveBack), attempt, 'give back');
    } else {
      this.failed++;
      this.#track(this.client.failAttempt(attempt.id, outcome.fail.data, outcome.fail.retryable), attempt, 'fail');
    }
  }

  /** Gives the attempt back at once, uncounted, because the worker is stopping: another worker runs it. */
  release(attempt, why) {
    this.retried++;
    this.#track(
      this.client.retryAttempt(attempt.id, { data: { traceback: why }, delayMs: 0, release: true }),
      attempt,
      'release',
    );
  }

  /** Sends the finishes batched so far when the batch is full, has waited long enough, or nothing else is held. */
  flushIfDue(now, nothingHeld) {
    if (
      this.finishes.length > 0 &&
      (this.finishes.length >= this.finishBatch || nothingHeld || now - this.finishesSince >= this.finishLingerMs)
    ) {
      this.flush();
    }
  }

  /** When the finishes batched so far are due (Infinity: none). */
  nextFlush() {
    return this.finishes.length === 0 ? Infinity : this.finishesSince + this.finishLingerMs;
  }

  flush() {
    while (this.finishes.length > 0) {
      const batch = this.finishes.splice(0, this.finishBatch);
      const attempts = this.finishing.splice(0, this.finishBatch);
      const reply = this.client.finishAttempts(batch).then(
        (result) => {
          this.finished += result.finished;
          for (const refused of result.errors) {
            if (refused.code === CANCELLED) {
              attempts.find((attempt) => attempt.id === refused.attemptId)?.cancel(); // only its callbacks are left
            } else {
              this.log(`finishing attempt ${refused.attemptId} was refused: ${refused.code} ${refused.message}`);
            }
          }
        },
        (error) => this.log(`finish_attempts of ${batch.length} attempts got no answer: ${error.message}`),
      );
      this.#keep(reply);
    }
  }

  /** After the stop: reports the last finishes, deactivates, and waits (up to `timeoutMs`) for the app to take them. */
  async finishAndDeactivate(timeoutMs) {
    this.flush();
    this.#keep(
      this.client.deactivateWorker(this.worker).catch((error) => this.log(`deactivate_worker: ${error.message}`)),
    );
    let timer;
    const late = new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs, 'late')));
    const outcome = await Promise.race([Promise.allSettled([...this.pending]), late]);
    clearTimeout(timer);
    if (outcome === 'late') this.log('not every last command was answered');
  }

  #track(reply, attempt, what) {
    this.#keep(
      reply.catch((error) => {
        if (error instanceof CommandRefused && error.code === CANCELLED) {
          attempt.cancel(); // its handler has ended: only the callbacks are left to run
        } else {
          this.log(`${what} of attempt ${attempt.id}: ${error.message}`);
        }
      }),
    );
  }

  #keep(promise) {
    this.pending.add(promise);
    promise.finally(() => this.pending.delete(promise));
  }
}

/** A handler's result as a finish's data: an object as it is, nothing as none, any other value under `result`. */
function resultData(result) {
  if (result === undefined || result === null) return null;
  if (typeof result === 'object' && !Array.isArray(result)) return result;
  return { result };
}
