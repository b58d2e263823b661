// When a worker sends the progress its handlers report: at most one per attempt per interval. A report within
// the interval of the last one sent waits for the interval's end, and the latest reported is sent then.

export class ProgressThrottle {
  constructor(intervalMs) {
    this.intervalMs = intervalMs;
    this.lastSent = new Map();
    /** The attempts whose progress waits, with when it is due. */
    this.waiting = new Map();
  }

  /** A handler reported progress: true to send it now, else it waits until due(). */
  reported(attemptId, now) {
    if (this.waiting.has(attemptId)) return false;
    const last = this.lastSent.get(attemptId);
    if (last === undefined || now - last >= this.intervalMs) {
      this.lastSent.set(attemptId, now);
      return true;
    }
    this.waiting.set(attemptId, last + this.intervalMs);
    return false;
  }

  /** The attempts whose waiting progress is to be sent now. */
  due(now) {
    const due = [];
    for (const [attemptId, at] of this.waiting) {
      if (at <= now) {
        this.waiting.delete(attemptId);
        this.lastSent.set(attemptId, now);
        due.push(attemptId);
      }
    }
    return due;
  }

  /** When the next waiting progress is due (Infinity: none). */
  nextDue() {
    let next = Infinity;
    for (const at of this.waiting.values()) next = Math.min(next, at);
    return next;
  }

  /** The attempt is no longer held: nothing more is sent for it. */
  forget(attemptId) {
    this.lastSent.delete(attemptId);
    this.waiting.delete(attemptId);
  }
}
