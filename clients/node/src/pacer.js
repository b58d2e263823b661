// When a worker asks for work and for how much: the adaptive holding of docs/client.md, the same rule as the
// Java and Python workers. Pure: times are milliseconds passed in, so that tests drive it with any clock.

/** How long a free handler waits for others before the worker asks for work for it. */
export const LINGER_MS = 20;
/** How many round trips of work the queue holds. */
export const ROUND_TRIPS = 4;
/** The weight of the latest measurement in the moving averages of handler time and round trip. */
const ALPHA = 0.2;
/** The shortest handler time the rule divides by, so that no-op handlers do not make the queue unbounded. */
const MIN_HANDLER_MS = 0.1;

/** How long to wait after an empty answer: `minMs`, doubling up to `maxMs`; work resets it. */
export class Backoff {
  constructor(minMs, maxMs) {
    if (!(minMs > 0 && maxMs >= minMs)) {
      throw new RangeError(`a backoff needs 0 < min <= max: ${minMs}, ${maxMs}`);
    }
    this.minMs = minMs;
    this.maxMs = maxMs;
    this.nextMs = minMs;
  }

  /** The wait after one more empty answer. */
  next() {
    const wait = this.nextMs;
    this.nextMs = Math.min(this.maxMs, this.nextMs * 2);
    return wait;
  }

  reset() {
    this.nextMs = this.minMs;
  }
}

/**
 * How many attempts a worker queues for its handlers beyond the running ones (Q). A fixed `prefetch` is kept as
 * given (`maxHeld` does not bound it). Otherwise Q holds ROUND_TRIPS round trips of work, ceil(4 × R ×
 * concurrency / H), with H the moving average of every handler run's time and R that of a request's round trip,
 * so that handlers do not starve while the next answer waits for the app's commit; it is capped so that the
 * queue drains within a quarter of the lease, and by `maxHeld`. Before both are measured, Q is
 * min(concurrency, maxHeld).
 */
export class HoldingRule {
  constructor({ concurrency, leaseMs, prefetch = null, maxHeld = 1000 }) {
    this.concurrency = concurrency;
    this.leaseMs = leaseMs;
    this.prefetch = prefetch;
    this.maxHeld = maxHeld;
    this.handlerMs = null;
    this.roundTripMs = null;
  }

  /** A handler's run ended (it returned, threw or was cancelled) after `ms`. */
  handlerRan(ms) {
    this.handlerMs = this.handlerMs === null ? ms : this.handlerMs + ALPHA * (ms - this.handlerMs);
  }

  /** A request sent once was answered `ms` after it went out. */
  answeredAfter(ms) {
    this.roundTripMs = this.roundTripMs === null ? ms : this.roundTripMs + ALPHA * (ms - this.roundTripMs);
  }

  /** Q: how many attempts to hold queued for a free handler. */
  queue() {
    if (this.prefetch !== null) return this.prefetch;
    if (this.handlerMs === null || this.roundTripMs === null) return Math.min(this.concurrency, this.maxHeld);
    const handler = Math.max(this.handlerMs, MIN_HANDLER_MS);
    const roundTrips = Math.ceil((ROUND_TRIPS * this.roundTripMs * this.concurrency) / handler);
    const drainsInQuarterLease = Math.floor(((this.leaseMs / 4) * this.concurrency) / handler);
    return Math.max(0, Math.min(roundTrips, drainsInQuarterLease, this.maxHeld));
  }
}

/**
 * Asks for the free room (concurrency + Q − held − requested) once it reaches half of concurrency + Q (rounded
 * up), when the worker holds nothing and awaits no answer, or once a free handler with room to ask for has waited
 * LINGER_MS (a free slot of the queue alone does not wait). Each request reserves
 * its room until its answer comes, so several may be in flight; one unanswered past the timeout is sent again.
 * After an empty answer it waits (Backoff); after one a rate limit held short, as long as it says (at most the
 * backoff's maximum).
 */
export class RequestPacer {
  constructor({ concurrency, holding, backoff, answerTimeoutMs, now }) {
    this.concurrency = concurrency;
    this.holding = holding;
    this.backoff = backoff;
    this.answerTimeoutMs = answerTimeoutMs;
    this.outstanding = new Map();
    this.reserved = 0;
    this.handlerFreeSince = -1;
    this.nextRequestAt = now;
  }

  capacity() {
    return this.concurrency + this.holding.queue();
  }

  /**
   * How many attempts to ask for now (0: none), holding `held` (running or queued). Tracks how long a handler has
   * been free with room to ask for, so call it whenever the worker acts.
   */
  toAsk(held, now) {
    const free = this.free(held);
    if (free <= 0 || !this.#handlerFree(held)) {
      this.handlerFreeSince = -1;
    } else if (this.handlerFreeSince < 0) {
      this.handlerFreeSince = now;
    }
    if (free <= 0 || now < this.nextRequestAt) return 0;
    const lingered = this.handlerFreeSince >= 0 && now - this.handlerFreeSince >= LINGER_MS;
    return this.#eager(held, free) || lingered ? free : 0;
  }

  /** The room neither held nor asked for. */
  free(held) {
    return this.capacity() - held - this.reserved;
  }

  /** Asks without the linger: it holds nothing and awaits nothing, or half its capacity is free. */
  #eager(held, free) {
    return (held === 0 && this.reserved === 0) || free >= Math.ceil(this.capacity() / 2);
  }

  /** A handler has nothing to run: queued attempts go to free handlers as they come. */
  #handlerFree(held) {
    return held < this.concurrency;
  }

  /** A request for `count` attempts went out: its room is reserved until it is answered. */
  asked(requestId, count, now) {
    this.outstanding.set(requestId, { count, deadline: now + this.answerTimeoutMs, sentAt: now, repeated: false });
    this.reserved += count;
    this.handlerFreeSince = -1;
  }

  /**
   * An answer came; `retryAfterMs` (or null) is a rate limit's wait. Returns false when it answers no request
   * still outstanding (a copy of one answered already).
   */
  answered(requestId, empty, retryAfterMs, now) {
    const request = requestId == null ? undefined : this.outstanding.get(requestId);
    if (request === undefined) return false;
    this.outstanding.delete(requestId);
    this.reserved -= request.count;
    if (!request.repeated) this.holding.answeredAfter(now - request.sentAt); // a copy's would measure the timeout
    if (retryAfterMs !== null && retryAfterMs !== undefined) {
      if (!empty) this.backoff.reset();
      this.nextRequestAt = now + Math.min(Math.max(0, retryAfterMs), this.backoff.maxMs);
    } else if (empty) {
      this.nextRequestAt = now + this.backoff.next();
    } else {
      this.backoff.reset();
      this.nextRequestAt = now;
    }
    return true;
  }

  /** The requests unanswered past their timeout, to be sent again as they were; their room stays reserved. */
  overdue(now) {
    const overdue = [];
    for (const [requestId, request] of this.outstanding) {
      if (now >= request.deadline) {
        request.deadline = now + this.answerTimeoutMs;
        request.repeated = true;
        overdue.push(requestId);
      }
    }
    return overdue;
  }

  awaitsAnswers() {
    return this.outstanding.size > 0;
  }

  /** The earliest time at which, nothing else happening, toAsk or overdue could change. */
  nextWakeUp(held, now) {
    let wake = Infinity;
    const free = this.free(held);
    if (free > 0 && this.#eager(held, free)) {
      wake = Math.max(this.nextRequestAt, now);
    } else if (free > 0 && this.#handlerFree(held)) {
      wake = Math.max(this.nextRequestAt, this.handlerFreeSince < 0 ? now : this.handlerFreeSince + LINGER_MS);
    }
    for (const request of this.outstanding.values()) {
      wake = Math.min(wake, request.deadline);
    }
    return wake;
  }
}
