// An attempt as a Worker hands it to its handler: the unit's data, progress reports, and cancellation.

import { progressJson } from './client.js';

export class Attempt {
  #controller = new AbortController();
  #callbacks = [];
  #progress = null;
  #onProgress;

  /** @param {import('./results.js').AssignedAttempt} assigned @param {(attempt: Attempt) => void} onProgress */
  constructor(assigned, onProgress) {
    this.id = assigned.attemptId;
    this.spec = assigned.workSpecName;
    this.unit = assigned.workUnitName;
    this.data = assigned.data;
    this.startTime = assigned.startTime;
    this.expirationTime = assigned.expirationTime;
    this.cancelled = false;
    this.#onProgress = onProgress;
  }

  get attemptId() {
    return this.id;
  }

  get workSpecName() {
    return this.spec;
  }

  get workUnitName() {
    return this.unit;
  }

  /**
   * Aborted when the handler should stop: its unit was cancelled (`cancelled` is true then), its lease was lost,
   * or the worker's stop timed out. What the handler returns or throws afterwards is dropped (or, at a stop, the
   * unit is released).
   */
  get signal() {
    return this.#controller.signal;
  }

  /**
   * Reports how far the handler has come: `fraction` from 0 to 1 (or null), `message` (or null) cut at 1000
   * characters. Sent with a lease renewal, at most one a second for this attempt: the latest report wins.
   */
  progress(fraction, message = null) {
    const waiting = this.#progress;
    this.#progress = progressJson({ fraction, message });
    if (waiting === null) this.#onProgress(this);
  }

  /** Runs `callback` when the attempt is cancelled (at once if it is already): keep it short. */
  onCancel(callback) {
    if (this.cancelled) {
      runQuietly(callback, this.id);
    } else {
      this.#callbacks.push(callback);
    }
  }

  /** The latest progress not sent yet (null: none); taking it leaves none. */
  takeProgress() {
    const latest = this.#progress;
    this.#progress = null;
    return latest;
  }

  /** The unit was cancelled: marks it, runs the callbacks and aborts the signal, once. */
  cancel() {
    if (this.cancelled) return false;
    this.cancelled = true;
    const callbacks = this.#callbacks;
    this.#callbacks = [];
    callbacks.forEach((callback) => runQuietly(callback, this.id));
    this.abort('the unit was cancelled');
    return true;
  }

  /** Tells the handler to stop: the worker no longer takes its outcome as it is. */
  abort(reason) {
    if (!this.#controller.signal.aborted) this.#controller.abort(new Error(reason));
  }
}

function runQuietly(callback, attemptId) {
  try {
    callback();
  } catch (error) {
    console.error(`a cancellation callback of attempt ${attemptId} failed:`, error);
  }
}
