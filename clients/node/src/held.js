// The attempts a Worker holds, queued or running, found in the order their lease renewals fall due. A lease counts
// from its request's send (its start at the app is later), so an attempt whose answer was slow falls due sooner than
// it came, and a renewal moves it back: a heap ordered by (renewAt, order) gives the next due at once, however many
// are held. An entry left behind by a renewal or a removal is skipped when it comes to the top.

export class HeldAttempts extends Map {
  constructor(renewAfterMs) {
    super();
    this.renewAfterMs = renewAfterMs;
    this.byRenewal = new RenewalHeap();
    this.orders = 0;
  }

  /**
   * Holds a new attempt, queued for a handler. `leaseFrom`: when its lease began at the latest, the first send of
   * the request that got it.
   */
  hold(attempt, leaseFrom) {
    const held = { attempt, state: 'queued', renewAt: 0, order: 0, lost: false };
    this.set(attempt.id, held);
    this.#schedule(held, leaseFrom + this.renewAfterMs);
    return held;
  }

  /** The attempts whose renewal is due, each with its next renewal set; never a lost one. */
  dueForRenewal(now) {
    const due = [];
    for (let first = this.#first(); first && first.renewAt <= now; first = this.#first()) {
      this.byRenewal.pop();
      due.push(first);
    }
    due.forEach((held) => this.renewed(held, now));
    return due;
  }

  /** A renewal went out for `held`: its next one is later, after the others due at the same time. */
  renewed(held, now) {
    this.#schedule(held, now + this.renewAfterMs);
  }

  /** When the next renewal falls due (Infinity: none). */
  nextRenewal() {
    return this.#first()?.renewAt ?? Infinity;
  }

  /** The attempts still renewed, in the order their renewals fall due. */
  inRenewalOrder() {
    return this.byRenewal.entries
      .filter((entry) => this.#current(entry))
      .sort(compareEntries)
      .map((entry) => entry.held);
  }

  #schedule(held, renewAt) {
    held.renewAt = renewAt;
    held.order = ++this.orders;
    this.byRenewal.push({ renewAt, order: held.order, held });
    if (this.byRenewal.entries.length > 2 * this.size + 64) {
      this.byRenewal.keepOnly((entry) => this.#current(entry)); // entries left behind would pile up otherwise
    }
  }

  /** The attempt whose renewal falls due first, dropping the entries left behind on the way. */
  #first() {
    let top = this.byRenewal.peek();
    while (top && !this.#current(top)) {
      this.byRenewal.pop();
      top = this.byRenewal.peek();
    }
    return top?.held;
  }

  /** A lost attempt is never renewed again: it stays held only until its handler ends. */
  #current(entry) {
    const { held } = entry;
    return entry.order === held.order && !held.lost && this.get(held.attempt.id) === held;
  }
}

function compareEntries(a, b) {
  return a.renewAt - b.renewAt || a.order - b.order;
}

/** A binary min-heap of renewal entries. */
class RenewalHeap {
  entries = [];

  peek() {
    return this.entries[0];
  }

  push(entry) {
    const heap = this.entries;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (compareEntries(heap[parent], entry) <= 0) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = entry;
  }

  pop() {
    const heap = this.entries;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0) {
      heap[0] = last;
      this.#siftDown(0);
    }
    return top;
  }

  keepOnly(keep) {
    this.entries = this.entries.filter(keep);
    for (let i = (this.entries.length >> 1) - 1; i >= 0; i--) this.#siftDown(i);
  }

  #siftDown(start) {
    const heap = this.entries;
    const entry = heap[start];
    let i = start;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= heap.length) break;
      if (child + 1 < heap.length && compareEntries(heap[child + 1], heap[child]) < 0) child++;
      if (compareEntries(entry, heap[child]) <= 0) break;
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = entry;
  }
}
