// A Worker's request_attempts: how many to ask for and when (RequestPacer), their ids, sending again those whose
// answer is late, and dropping the copies of answers to a request sent more than once.

import { randomBytes } from 'node:crypto';
import { attemptRequest } from './client.js';

/** How many requests sent more than once it remembers as answered, to drop the later answers' copies. */
const ANSWERED_REPEATS_KEPT = 1024;

export class WorkRequests {
  constructor(client, worker, { specs, leaseMs, pacer, log }) {
    this.client = client;
    this.worker = worker;
    this.specs = specs;
    this.leaseMs = leaseMs;
    this.pacer = pacer;
    this.log = log;
    /** Unique to this worker object: a worker of the same name started again must not repeat its ids. */
    this.idPrefix = `${worker}-${randomBytes(4).toString('hex')}-`;
    this.sequence = 0;
    this.sent = 0;
    this.unanswered = new Map();
    this.answeredRepeats = new Set();
  }

  ask(count, now) {
    const requestId = this.idPrefix + ++this.sequence;
    const command = attemptRequest({
      worker: this.worker,
      count,
      leaseMs: this.leaseMs,
      workSpecs: this.specs,
      requestId,
    });
    this.pacer.asked(requestId, count, now);
    this.unanswered.set(requestId, { command, firstSentAt: now, repeated: false });
    this.#send(command);
  }

  /** Sends again, as they were, the requests whose answer is overdue. */
  resendOverdue(now) {
    for (const requestId of this.pacer.overdue(now)) {
      this.log(`no assignment for request ${requestId} in ${this.client.timeoutMs} ms; sending it again`);
      const request = this.unanswered.get(requestId);
      request.repeated = true;
      this.#send(request.command);
    }
  }

  /**
   * Takes an answer to a request still outstanding, whose attempts the worker takes: returns when their leases count
   * from, the request's first send (whichever copy the app took). Null for a copy of an answer taken already.
   */
  answered(assignment, now) {
    const { requestId } = assignment;
    if (requestId == null || this.answeredRepeats.has(requestId)) return null;
    if (!this.pacer.answered(requestId, assignment.attempts.length === 0, assignment.retryAfterMs, now)) return null;
    const request = this.unanswered.get(requestId);
    this.unanswered.delete(requestId);
    if (request?.repeated) {
      this.answeredRepeats.add(requestId);
      if (this.answeredRepeats.size > ANSWERED_REPEATS_KEPT) {
        this.answeredRepeats.delete(this.answeredRepeats.values().next().value);
      }
    }
    return request ? request.firstSentAt : now;
  }

  #send(command) {
    this.sent++;
    this.client.connection
      .send(this.client.namespace, { ...command })
      .catch((error) => this.log(`could not send request_attempts: ${error.message}`));
  }
}
