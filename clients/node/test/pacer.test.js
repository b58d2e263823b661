import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Backoff, HoldingRule, LINGER_MS, RequestPacer } from '../src/pacer.js';

const rule = (options) => new HoldingRule({ concurrency: 8, leaseMs: 30_000, ...options });

test('before both measurements the queue is the concurrency', () => {
  const holding = rule();
  assert.equal(holding.queue(), 8);
  holding.handlerRan(5);
  assert.equal(holding.queue(), 8);
});

test('the queue holds two round trips of work', () => {
  const holding = rule();
  holding.handlerRan(10);
  holding.answeredAfter(50);
  assert.equal(holding.queue(), 80); // ceil(2 × 50 × 8 / 10)
});

test('the averages move by a fifth of each new measurement', () => {
  const holding = rule();
  holding.handlerRan(10);
  holding.handlerRan(20); // 10 + 0.2 × 10 = 12
  holding.answeredAfter(100);
  holding.answeredAfter(50); // 100 - 0.2 × 50 = 90
  assert.equal(holding.handlerMs, 12);
  assert.equal(holding.roundTripMs, 90);
  assert.equal(holding.queue(), 120); // ceil(2 × 90 × 8 / 12)
});

test('no-op handlers count as 0.1 ms, and maxHeld caps the queue', () => {
  const holding = rule({ concurrency: 1 });
  holding.handlerRan(0.001);
  holding.answeredAfter(30);
  assert.equal(holding.queue(), 600); // ceil(2 × 30 × 1 / 0.1)
  holding.answeredAfter(130); // 30 + 0.2 × 100 = 50 → 1000
  holding.answeredAfter(530); // 50 + 0.2 × 480 = 146 → 2920, capped
  assert.equal(holding.queue(), 1000);
  assert.equal(rule({ concurrency: 1, maxHeld: 250 }).queue(), 1);
});

test('the queue drains within a quarter of the lease: long handlers hold nothing extra', () => {
  const holding = rule({ concurrency: 2, leaseMs: 10_000 });
  holding.handlerRan(1000);
  holding.answeredAfter(2000);
  assert.equal(holding.queue(), 5); // min(ceil(2 × 2000 × 2 / 1000) = 8, floor(2500 × 2 / 1000) = 5)
  const long = rule({ concurrency: 1, leaseMs: 30_000 });
  long.handlerRan(60_000);
  long.answeredAfter(100);
  assert.equal(long.queue(), 0);
});

test('a prefetch is kept as given', () => {
  const holding = rule({ prefetch: 3 });
  holding.handlerRan(0.01);
  holding.answeredAfter(100);
  assert.equal(holding.queue(), 3);
});

function pacer({ concurrency = 4, prefetch = 0, now = 0 } = {}) {
  const holding = new HoldingRule({ concurrency, leaseMs: 30_000, prefetch });
  return new RequestPacer({ concurrency, holding, backoff: new Backoff(100, 5000), answerTimeoutMs: 30_000, now });
}

test('a worker that holds nothing asks for all its room at once', () => {
  assert.equal(pacer({ concurrency: 4, prefetch: 6 }).toAsk(0, 0), 10);
});

test('it asks when half the room is free, or once a free handler waited 20 ms', () => {
  const p = pacer({ concurrency: 4, prefetch: 6 });
  p.asked('r1', 10, 0);
  assert.equal(p.answered('r1', false, null, 10), true);
  assert.equal(p.toAsk(6, 10), 0); // 4 free of 10: less than half, and no handler free
  assert.equal(p.toAsk(5, 11), 5); // half free
  p.asked('r2', 5, 11);
  assert.equal(p.answered('r2', false, null, 20), true);
  assert.equal(p.toAsk(7, 20), 0);
  assert.equal(p.toAsk(3, 21), 7); // 7 free: more than half
  p.asked('r3', 7, 21);
  p.answered('r3', false, null, 30);
  assert.equal(p.toAsk(10, 30), 0);
  assert.equal(p.toAsk(9, 31), 0);
  const shortQueue = pacer({ concurrency: 8, prefetch: 2 });
  shortQueue.asked('a', 10, 0);
  shortQueue.answered('a', false, null, 5);
  assert.equal(shortQueue.toAsk(8, 50), 0);
  assert.equal(shortQueue.toAsk(7, 100), 0); // 3 free of 10, and a handler free from now
  assert.equal(shortQueue.toAsk(7, 100 + LINGER_MS - 1), 0);
  assert.equal(shortQueue.toAsk(7, 100 + LINGER_MS), 3);
});

test('requests in flight reserve their room', () => {
  const p = pacer({ concurrency: 2, prefetch: 0 });
  assert.equal(p.toAsk(0, 0), 2);
  p.asked('r1', 2, 0);
  assert.equal(p.toAsk(0, 1), 0);
  assert.equal(p.awaitsAnswers(), true);
  assert.equal(p.answered('other', false, null, 2), false);
  assert.equal(p.answered('r1', false, null, 3), true);
  assert.equal(p.answered('r1', false, null, 4), false); // a copy of an answer taken
});

test('empty answers back off from 100 ms doubling to 5 s; work resets it', () => {
  const p = pacer({ concurrency: 1 });
  const waits = [];
  let now = 0;
  for (let i = 0; i < 8; i++) {
    p.asked(`r${i}`, 1, now);
    p.answered(`r${i}`, true, null, now);
    waits.push(p.nextWakeUp(0, now) - now);
    now = p.nextWakeUp(0, now);
    assert.equal(p.toAsk(0, now - 1), 0);
    assert.equal(p.toAsk(0, now), 1);
  }
  assert.deepEqual(waits, [100, 200, 400, 800, 1600, 3200, 5000, 5000]);
  p.asked('w', 1, now);
  p.answered('w', false, null, now);
  p.asked('e', 1, now);
  p.answered('e', true, null, now);
  assert.equal(p.nextWakeUp(0, now) - now, 100);
});

test('retry_after_ms is heeded, at most the maximum backoff', () => {
  const p = pacer({ concurrency: 1 });
  p.asked('r1', 1, 0);
  p.answered('r1', true, 750, 0);
  assert.equal(p.nextWakeUp(0, 0), 750);
  p.asked('r2', 1, 750);
  p.answered('r2', true, 60_000, 750);
  assert.equal(p.nextWakeUp(0, 750), 5750);
});

test('a request unanswered past the timeout is due again, its room still reserved', () => {
  const p = pacer({ concurrency: 1 });
  p.asked('r1', 1, 0);
  assert.deepEqual(p.overdue(29_999), []);
  assert.deepEqual(p.overdue(30_000), ['r1']);
  assert.deepEqual(p.overdue(30_001), []);
  assert.equal(p.toAsk(0, 30_001), 0);
  assert.equal(p.nextWakeUp(0, 30_001), 60_000);
});

test('an idle worker asks at most 10 times in its first second, then once per 5 s', () => {
  const p = pacer({ concurrency: 8 });
  let now = 0;
  let sent = 0;
  const times = [];
  while (now < 31_000) {
    const count = p.toAsk(0, now);
    if (count > 0) {
      p.asked(`r${sent}`, count, now);
      p.answered(`r${sent}`, true, null, now + 5);
      times.push(now);
      sent++;
    }
    now = Math.max(now + 1, p.nextWakeUp(0, now));
  }
  assert.equal(times.filter((t) => t < 1000).length, 4);
  assert.deepEqual(times.slice(-3).map((t, i, all) => (i === 0 ? 0 : t - all[i - 1])), [0, 5005, 5005]);
});
