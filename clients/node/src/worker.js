// Runs a handler for the units of some work specs, `concurrency` at a time, with the Java Worker's semantics
// (docs/client.md "Work units with a Worker"): leases renewed at half their lifetime, batched finishes,
// retryable and permanent failures, progress, cancellation, a graceful stop, and the adaptive holding of pacer.js.

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Attempt } from './attempt.js';
import { CommandRefused } from './errors.js';
import { HeldAttempts } from './held.js';
import { Backoff, HoldingRule, RequestPacer } from './pacer.js';
import { ProgressThrottle } from './progress.js';
import { AttemptReports, CANCELLED } from './reports.js';
import { WorkRequests } from './requests.js';
import { Assignment } from './results.js';

const PROGRESS_INTERVAL_MS = 1000;
const SIGNALS = { SIGTERM: 143, SIGINT: 130 };

export class Worker {
  /**
   * @param {import('./client.js').Client} client
   * @param {object} options see index.d.ts
   */
  constructor(
    client,
    {
      specs = [],
      handler,
      concurrency = 1,
      leaseMs = 30_000,
      prefetch = null,
      maxHeld = 1000,
      backoffMs = [100, 5000],
      closeTimeoutMs = 30_000,
      heartbeatIntervalMs = 30_000,
      finishBatch = 100,
      finishLingerMs = 20,
      handleSignals = true,
      name = null,
    } = {},
  ) {
    if (typeof handler !== 'function') throw new TypeError('a handler function is required');
    if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
      throw new RangeError(`concurrency must be at least 1: ${concurrency}`);
    }
    if (!(leaseMs >= 1000)) throw new RangeError(`a lease is at least 1 s: ${leaseMs} ms`);
    if (prefetch !== null && !(prefetch >= 0)) throw new RangeError(`prefetch must not be negative: ${prefetch}`);
    this.client = client;
    this.name = name ?? `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
    this.specs = [...specs];
    this.handler = handler;
    this.concurrency = concurrency;
    this.leaseMs = leaseMs;
    this.closeTimeoutMs = closeTimeoutMs;
    this.heartbeatIntervalMs = heartbeatIntervalMs;
    this.handleSignals = handleSignals;
    this.holding = new HoldingRule({ concurrency, leaseMs, prefetch, maxHeld });
    this.pacer = new RequestPacer({
      concurrency,
      holding: this.holding,
      backoff: new Backoff(backoffMs[0], backoffMs[1]),
      answerTimeoutMs: client.timeoutMs,
      now: performance.now(),
    });
    const log = (text) => this.#log(text);
    this.workRequests = new WorkRequests(client, this.name, { specs: this.specs, leaseMs, pacer: this.pacer, log });
    this.reports = new AttemptReports(client, this.name, { finishBatch, finishLingerMs, log });
    this.progressThrottle = new ProgressThrottle(PROGRESS_INTERVAL_MS);
    this.held = new HeldAttempts(leaseMs / 2);
    this.queue = [];
    this.running = 0;
    this.started = false;
    this.stopping = false;
    this.done = false;
    this.timer = null;
    this.kicked = false;
    this.signalListeners = [];
    this.stopped = new Promise((resolve, reject) => {
      this.resolveStopped = resolve;
      this.rejectStopped = reject;
    });
    this.stopped.catch(() => {}); // awaited by stop(); an unawaited failure is logged there
  }

  /** Units finished (by the app's count: items of finish_attempts that it applied). */
  get finished() {
    return this.reports.finished;
  }

  /** Attempts failed because the handler threw (retryable or not). */
  get failed() {
    return this.reports.failed;
  }

  /** Attempts given back: the handler asked to retry later, or the worker released it at its stop. */
  get retried() {
    return this.reports.retried;
  }

  /** request_attempts commands sent so far, copies of late ones included. */
  get requests() {
    return this.workRequests.sent;
  }

  /**
   * Starts working: fixes the read position of its assignments, checks in, and asks for work. With
   * `handleSignals` (the default), SIGTERM and SIGINT stop it gracefully (a second one exits at once).
   */
  async start() {
    if (this.started) throw new Error(`worker ${this.name} already started`);
    this.started = true;
    await this.client.connection.watchAssignments(this.name, (record) => this.#assigned(record));
    if (this.handleSignals) {
      for (const [signal, status] of Object.entries(SIGNALS)) {
        const listener = () => (this.stopping ? process.exit(status) : this.stop().catch(() => {}));
        process.on(signal, listener);
        this.signalListeners.push([signal, listener]);
      }
    }
    this.nextHeartbeatAt = performance.now();
    this.#act();
    return this;
  }

  /** Starts, and resolves once the worker has stopped (by stop(), SIGTERM or SIGINT). */
  async run() {
    await this.start();
    await this.stopped;
  }

  /**
   * Stops gracefully: asks for nothing more, releases the attempts not started, lets running handlers end within
   * `closeTimeoutMs`, aborts and releases those still running, reports the last finishes and deactivates.
   */
  async stop() {
    if (!this.started) return;
    if (!this.stopping) {
      this.stopping = true;
      this.stopDeadline = performance.now() + this.closeTimeoutMs;
      this.#kick();
    }
    await this.stopped;
  }

  // --- the decisions, made on each event (coalesced) and at the next time something falls due

  #kick() {
    if (this.kicked || this.done) return;
    this.kicked = true;
    setImmediate(() => {
      this.kicked = false;
      this.#act();
    });
  }

  #act() {
    if (this.done) return;
    try {
      const now = performance.now();
      if (!this.stopping && now >= this.nextHeartbeatAt) {
        this.#heartbeat();
        this.nextHeartbeatAt = now + this.heartbeatIntervalMs;
      }
      for (const held of this.held.dueForRenewal(now)) this.#renew(held, null);
      for (const attemptId of this.progressThrottle.due(now)) this.#sendProgress(this.held.get(attemptId), now);
      if (this.stopping) this.#giveBackOnStop(now);
      this.reports.flushIfDue(now, this.held.size === 0);
      this.workRequests.resendOverdue(now);
      const count = this.pacer.toAsk(this.held.size, now);
      if (!this.stopping && count > 0) {
        this.reports.flush(); // report what is done before asking for more
        this.workRequests.ask(count, now);
      }
      // An answer still on its way would hold attempts nobody gives back: wait for it, up to the deadline.
      if (this.stopping && this.held.size === 0 && (!this.pacer.awaitsAnswers() || now >= this.stopDeadline)) {
        this.#finish();
        return;
      }
      this.#schedule(now);
    } catch (error) {
      this.#log(`stopped on an error: ${error.stack}`);
      this.done = true;
      this.rejectStopped(error);
    }
  }

  #schedule(now) {
    let wake = now + 1000;
    if (!this.stopping) {
      wake = Math.min(wake, this.nextHeartbeatAt, this.pacer.nextWakeUp(this.held.size, now));
    } else {
      wake = Math.min(wake, this.stopDeadline);
    }
    wake = Math.min(wake, this.reports.nextFlush(), this.progressThrottle.nextDue(), this.held.nextRenewal());
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.#act(), Math.max(0, Math.ceil(wake - now)));
  }

  async #finish() {
    this.done = true;
    clearTimeout(this.timer);
    try {
      await this.reports.finishAndDeactivate(this.client.timeoutMs);
      await this.client.connection.stopWatching(this.name);
    } catch (error) {
      this.#log(`did not stop cleanly: ${error.message}`);
    } finally {
      for (const [signal, listener] of this.signalListeners) process.removeListener(signal, listener);
      this.signalListeners = [];
      this.resolveStopped();
    }
  }

  // --- asking for work

  /** A record of the worker's assignments: an answer to a request, or a notice of cancelled attempts. */
  #assigned(record) {
    if (this.done) return;
    if (Array.isArray(record.cancelled)) {
      for (const attemptId of record.cancelled) {
        const held = this.held.get(String(attemptId));
        if (held) this.#cancel(held);
      }
    }
    if (Array.isArray(record.attempts)) this.#onAssignment(new Assignment(record));
    this.#kick();
  }

  #onAssignment(assignment) {
    const now = performance.now();
    // Only an answer to a request still outstanding hands out attempts: a copy of one taken already does not.
    const leaseFrom = this.workRequests.answered(assignment, now);
    if (leaseFrom === null) return;
    for (const assigned of assignment.attempts) {
      if (this.held.has(assigned.attemptId)) continue; // a repeated request's answer names what it handed out already
      const attempt = new Attempt(assigned, (reported) => this.#progressReported(reported));
      if (this.stopping) {
        this.reports.release(attempt, 'the worker stopped before it started');
        continue;
      }
      this.queue.push(this.held.hold(attempt, leaseFrom));
    }
    this.#startQueued();
  }

  // --- running handlers

  #startQueued() {
    while (this.running < this.concurrency && this.queue.length > 0 && !this.stopping) {
      const held = this.queue.shift();
      if (held.state !== 'queued' || !this.held.has(held.attempt.id)) continue; // given back or cancelled meanwhile
      this.#run(held);
    }
  }

  async #run(held) {
    held.state = 'running';
    this.running++;
    const started = performance.now();
    let result;
    let error;
    let failed = false;
    try {
      result = await this.handler(held.attempt);
    } catch (thrown) {
      error = thrown;
      failed = true;
    }
    const now = performance.now();
    this.holding.handlerRan(now - started);
    this.running--;
    this.#ended(held, result, error, failed, now);
    this.#startQueued();
    this.#kick();
  }

  #ended(held, result, error, failed, now) {
    const attemptId = held.attempt.id;
    if (this.held.get(attemptId) !== held) return; // given back at the stop deadline already
    this.#forget(attemptId);
    if (held.lost) return; // the app no longer takes this attempt's outcome
    this.reports.ended(held.attempt, result, error, failed, this.stopping, now);
  }

  /** At a stop: gives back the attempts not started, and past the deadline those still running. */
  #giveBackOnStop(now) {
    const pastDeadline = now >= this.stopDeadline;
    for (const held of [...this.held.values()]) {
      if (held.state === 'queued') {
        held.state = 'withdrawn';
        this.#forget(held.attempt.id);
        if (!held.lost) this.reports.release(held.attempt, 'the worker stopped before it started');
      } else if (pastDeadline) {
        this.#forget(held.attempt.id);
        held.attempt.abort('the worker stopped');
        if (!held.lost) this.reports.release(held.attempt, 'the worker stopped while it ran');
      }
    }
    this.queue = [];
  }

  #forget(attemptId) {
    this.held.delete(attemptId);
    this.progressThrottle.forget(attemptId);
  }

  /** The unit of a held attempt was cancelled: the handler learns it, and nothing more is reported for it. */
  #cancel(held) {
    if (held.attempt.cancel()) this.#log(`attempt ${held.attempt.id} was cancelled; its handler is aborted`);
    this.#drop(held);
  }

  /** Stops renewing a held attempt and aborts its handler, whose outcome is dropped; one still queued never runs. */
  #drop(held) {
    this.progressThrottle.forget(held.attempt.id);
    if (held.state === 'queued') {
      held.state = 'withdrawn';
      this.held.delete(held.attempt.id);
    } else if (!held.lost) {
      held.lost = true;
      held.attempt.abort('the lease was lost');
    }
  }

  // --- leases, progress, heartbeats

  #renew(held, progress) {
    const attemptId = held.attempt.id;
    this.client.renewAttempt(attemptId, { extendMs: this.leaseMs, progress }).catch((error) => {
      if (error instanceof CommandRefused) {
        this.#leaseLost(attemptId, error.code);
      } else {
        this.#log(`renewing attempt ${attemptId} got no answer: ${error.message}`);
      }
    });
  }

  #leaseLost(attemptId, code) {
    const held = this.held.get(attemptId);
    if (!held) return;
    if (code === CANCELLED) {
      this.#cancel(held);
    } else {
      this.#log(`lost the lease of attempt ${attemptId} (${code}); its handler is aborted`);
      this.#drop(held);
    }
    this.#kick();
  }

  #progressReported(attempt) {
    const held = this.held.get(attempt.id);
    if (held && !held.lost && this.progressThrottle.reported(attempt.id, performance.now())) {
      this.#sendProgress(held, performance.now());
    }
    this.#kick();
  }

  /** A renewal with the progress its handler reported last, which extends the lease as any renewal. */
  #sendProgress(held, now) {
    const latest = held?.attempt.takeProgress();
    if (latest) {
      this.held.renewed(held, now);
      this.#renew(held, latest);
    }
  }

  #heartbeat() {
    const data = {
      host: hostname(),
      pid: process.pid,
      concurrency: this.concurrency,
      work_specs: this.specs,
      language: 'node',
    };
    this.client
      .workerHeartbeat(this.name, { mode: 'run', data, expireMs: this.heartbeatIntervalMs * 3 })
      .catch((error) => this.#log(`heartbeat got no answer: ${error.message}`));
  }

  #log(text) {
    process.stderr.write(`worker ${this.name}: ${text}\n`);
  }
}
