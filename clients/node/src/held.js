// The attempts a Worker holds, queued or running, kept in the order their lease renewals fall due: every lease
// has the same length, so that is the order they came in, and a renewed attempt moves to the end. Finding what is
// due then stops at the first attempt that is not, however many are held.

export class HeldAttempts extends Map {
  constructor(renewAfterMs) {
    super();
    this.renewAfterMs = renewAfterMs;
  }

  /** Holds a new attempt, queued for a handler. */
  hold(attempt, now) {
    const held = { attempt, state: 'queued', renewAt: now + this.renewAfterMs, lost: false };
    this.set(attempt.id, held);
    return held;
  }

  /** The attempts whose renewal is due, each moved to the end with its next renewal set. */
  dueForRenewal(now) {
    const due = [];
    for (const held of this.values()) {
      if (held.lost) continue; // never renewed again; it leaves when its handler ends
      if (held.renewAt > now) break;
      due.push(held);
    }
    due.forEach((held) => this.renewed(held, now));
    return due;
  }

  /** A renewal went out for `held`: its next one is later, and it moves to the end of the order. */
  renewed(held, now) {
    held.renewAt = now + this.renewAfterMs;
    this.delete(held.attempt.id);
    this.set(held.attempt.id, held);
  }

  /** When the next renewal falls due (Infinity: none). */
  nextRenewal() {
    for (const held of this.values()) {
      if (!held.lost) return held.renewAt;
    }
    return Infinity;
  }
}
