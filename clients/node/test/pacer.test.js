// The adaptive holding of docs/client.md and the request pacing, on a clock of our own (milliseconds): the same
// rule, and the same values, as the Java worker's AttemptHoldingTest and RequestPacerTest.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Backoff, HoldingRule, RequestPacer } from '../src/pacer.js';

const TIMEOUT = 10_000;

const rule = (options) => new HoldingRule({ concurrency: 8, leaseMs: 30_000, ...options });

function measured(handlerMs, roundTripMs, options) {
  const holding = rule(options);
  holding.handlerRan(handlerMs);
  holding.answeredAfter(roundTripMs);
  return holding.queue();
}

test('four round trips of work are queued', () => {
  assert.equal(measured(1, 20), 640); // ceil(4 × 20 ms × 8 / 1 ms)
  assert.equal(measured(3, 20, { concurrency: 2 }), 54); // ceil(4 × 20 ms × 2 / 3 ms) = ceil(53.3)
});

test('short handlers are capped by maxHeld', () => {
  assert.equal(measured(1, 100), 1000);
  assert.equal(measured(1, 100, { maxHeld: 50 }), 50);
});

test('a handler counts as at least a tenth of a millisecond', () => {
  assert.equal(measured(0, 20, { maxHeld: 100_000 }), 6400); // ceil(4 × 20 ms × 8 / 0.1 ms), not unbounded
});

test('the queue drains within a quarter of the lease', () => {
  // Four round trips of 2 s would be 640 units of 100 ms; a quarter of the lease's work is 7.5 s × 8 / 100 ms.
  assert.equal(measured(100, 2000), 600);
  // Handlers of 10 minutes hold nothing extra: floor(7.5 s × 8 / 600 s) = 0.
  assert.equal(measured(600_000, 100), 0);
});

test('until both are measured the queue is the concurrency', () => {
  const holding = rule();
  assert.equal(holding.queue(), 8);
  holding.handlerRan(1);
  assert.equal(holding.queue(), 8);
  holding.answeredAfter(20);
  assert.equal(holding.queue(), 640);
  assert.equal(rule({ maxHeld: 3 }).queue(), 3);
});

test('each measurement moves the average by a fifth', () => {
  const holding = rule();
  holding.answeredAfter(10);
  holding.handlerRan(1);
  assert.equal(holding.queue(), 320); // 4 × 10 × 8 / 1
  holding.handlerRan(2); // H = 1 + 0.2 × (2 - 1) = 1.2 ms
  assert.equal(holding.queue(), 267); // ceil(320 / 1.2)
  holding.answeredAfter(60); // R = 10 + 0.2 × (60 - 10) = 20 ms
  assert.equal(holding.queue(), 534); // ceil(640 / 1.2)
});

test('a prefetch is fixed', () => {
  const holding = rule({ prefetch: 200 });
  assert.equal(holding.queue(), 200);
  holding.handlerRan(600_000);
  holding.answeredAfter(20);
  assert.equal(holding.queue(), 200);
  assert.equal(rule({ prefetch: 2000, maxHeld: 1000 }).queue(), 2000, 'maxHeld bounds only the adaptive queue');
});

/** A worker of `concurrency` handlers, backing off from 100 ms to 5 s, started at time 0. */
function pacerOf(holding) {
  const { concurrency } = holding;
  return new RequestPacer({ concurrency, holding, backoff: new Backoff(100, 5000), answerTimeoutMs: TIMEOUT, now: 0 });
}

/** 16 handlers and no prefetch. */
const pacer = () => pacerOf(new HoldingRule({ concurrency: 16, leaseMs: 30_000, prefetch: 0 }));

test('holding nothing it asks for every slot at once', () => {
  const p = pacer();
  assert.equal(p.toAsk(0, 0), 16);
  p.asked('r1', 16, 0);
  assert.equal(p.free(0), 0); // all reserved by the request
  assert.equal(p.toAsk(0, 1), 0);
});

test('one freed slot waits for half the slots or the linger', () => {
  const p = pacer();
  p.asked('r1', 16, 0);
  assert.equal(p.answered('r1', false, null, 10), true);
  assert.equal(p.toAsk(15, 11), 0); // one slot free since 11 ms
  assert.equal(p.toAsk(9, 12), 0); // seven
  assert.equal(p.toAsk(8, 13), 8); // half
  assert.equal(p.toAsk(15, 13), 0);
  // A lone free slot goes once it has waited the linger, 20 ms from when it was first seen free.
  assert.equal(p.nextWakeUp(15, 13), 31);
  assert.equal(p.toAsk(15, 30), 0);
  assert.equal(p.toAsk(15, 31), 1);
});

test('each request reserves its slots, so several may be in flight', () => {
  const p = pacer();
  p.asked('r1', 16, 0);
  p.answered('r1', false, null, 1);
  assert.equal(p.toAsk(8, 1), 8);
  p.asked('r2', 8, 1);
  assert.equal(p.free(0), 8); // the 8 held ended, r2 holds 8
  assert.equal(p.toAsk(0, 2), 8);
  p.asked('r3', 8, 2);
  assert.equal(p.awaitsAnswers(), true);
  assert.equal(p.answered('r2', false, null, 3), true);
  assert.equal(p.answered('r3', false, null, 3), true);
  assert.equal(p.awaitsAnswers(), false);
  assert.equal(p.answered('r3', false, null, 3), false); // answered already
  assert.equal(p.answered(null, false, null, 3), false);
});

test('empty answers back off doubling up to the cap, and work resets it', () => {
  const p = pacer();
  let now = 0;
  for (const wait of [100, 200, 400, 800, 1600, 3200, 5000, 5000]) {
    assert.equal(p.toAsk(0, now), 16);
    p.asked(`r${now}`, 16, now);
    p.answered(`r${now}`, true, null, now);
    assert.equal(p.toAsk(0, now + wait - 1), 0, `before ${wait} ms`);
    assert.equal(p.nextWakeUp(0, now), now + wait);
    now += wait;
  }
  p.asked('work', 16, now);
  p.answered('work', false, null, now);
  p.asked('empty', 16, now);
  p.answered('empty', true, null, now);
  assert.equal(p.toAsk(0, now + 99), 0);
  assert.equal(p.toAsk(0, now + 100), 16); // from 100 ms again
});

test('a request unanswered past the timeout is overdue and keeps its slots', () => {
  const p = pacer();
  p.asked('r1', 16, 0);
  assert.equal(p.nextWakeUp(0, 1), TIMEOUT);
  assert.deepEqual(p.overdue(TIMEOUT - 1), []);
  assert.deepEqual(p.overdue(TIMEOUT), ['r1']);
  assert.equal(p.free(0), 0, 'sent again, not given up: no second request for its slots');
  assert.equal(p.toAsk(0, TIMEOUT), 0);
  assert.equal(p.nextWakeUp(0, TIMEOUT), 2 * TIMEOUT);
  assert.deepEqual(p.overdue(2 * TIMEOUT - 1), []);
  assert.equal(p.answered('r1', false, null, 2 * TIMEOUT - 1), true);
  assert.equal(p.free(0), 16);
  assert.equal(p.answered('r1', false, null, 2 * TIMEOUT), false); // the answer to the copy sent again
});

test('an answer a rate limit held short waits its retry_after instead of the backoff', () => {
  const p = pacer();
  p.asked('r1', 16, 0);
  assert.equal(p.answered('r1', true, 50, 0), true);
  assert.equal(p.nextWakeUp(0, 0), 50);
  assert.equal(p.toAsk(0, 49), 0);
  assert.equal(p.toAsk(0, 50), 16);
  // the backoff did not move: the next plain empty answer still waits its first 100 ms
  p.asked('r2', 16, 50);
  p.answered('r2', true, null, 60);
  assert.equal(p.nextWakeUp(0, 60), 160);
  // work held short by a limit: wait for the token too, rather than asking at once
  assert.equal(p.toAsk(0, 160), 16);
  p.asked('r3', 16, 160);
  p.answered('r3', false, 30, 170);
  assert.equal(p.nextWakeUp(4, 170), 200);
  assert.equal(p.toAsk(4, 199), 0);
  assert.equal(p.toAsk(4, 200), 12);
});

test('a retry_after longer than the maximum backoff waits the maximum', () => {
  const p = pacer();
  p.asked('r1', 16, 0);
  p.answered('r1', true, 60_000, 0);
  assert.equal(p.nextWakeUp(0, 0), 5000);
});

test('at the defaults the room grows once the handlers and the round trip are measured', () => {
  const holding = rule();
  const p = pacerOf(holding);
  assert.equal(p.toAsk(0, 0), 16); // 8 handlers and a queue of 8 until measured
  p.asked('r1', 16, 0);
  assert.equal(p.answered('r1', false, null, 20), true); // a round trip of 20 ms
  assert.equal(p.toAsk(16, 20), 0);
  holding.handlerRan(1); // the first handler ended after 1 ms: 4 × 20 × 8 / 1 = 640 queued
  assert.equal(p.toAsk(15, 21), 648 - 15);
});

test('the round trip of a request sent again is not measured', () => {
  const holding = rule();
  const p = pacerOf(holding);
  holding.handlerRan(1);
  p.asked('r1', 16, 0);
  assert.deepEqual(p.overdue(TIMEOUT), ['r1']);
  p.answered('r1', false, null, TIMEOUT + 5);
  assert.equal(holding.queue(), 8, 'still unmeasured');
  p.asked('r2', 16, TIMEOUT + 5);
  p.answered('r2', false, null, TIMEOUT + 15);
  assert.equal(holding.queue(), 320); // 4 × 10 ms × 8 / 1 ms
});

test('only a free handler lingers, not a free slot of the queue', () => {
  const p = pacerOf(rule({ prefetch: 8 }));
  p.asked('r1', 16, 0);
  p.answered('r1', false, null, 10);
  // 12 held: every handler busy, 4 queued; 4 slots free, under half of 16.
  assert.equal(p.toAsk(12, 10), 0);
  assert.equal(p.nextWakeUp(12, 10), Infinity, 'nothing to wake up for');
  assert.equal(p.toAsk(12, 500), 0);
  // 8 held: half free, asked at once; then 5 held with those 8 on their way: a handler is free from 501 ms,
  // and its 3 slots wait the linger for others.
  assert.equal(p.toAsk(8, 500), 8);
  p.asked('r2', 8, 500);
  assert.equal(p.toAsk(5, 501), 0);
  assert.equal(p.nextWakeUp(5, 501), 521);
  assert.equal(p.toAsk(5, 521), 3);
});

test('a free handler with no room to ask for does not start the linger', () => {
  const p = pacerOf(rule({ prefetch: 8 }));
  p.asked('r1', 16, 0);
  p.answered('r1', false, null, 10);
  assert.equal(p.toAsk(8, 20), 8);
  p.asked('r2', 8, 20);
  assert.equal(p.toAsk(7, 50), 0); // a handler free with room for 1: it waits the linger
  assert.equal(p.toAsk(7, 70), 1);
  p.asked('r3', 1, 70);
  assert.equal(p.toAsk(7, 80), 0); // a handler free, but every slot held or asked for
  // room for 1 again from 100 ms: the linger starts then, not when the handler became free
  assert.equal(p.toAsk(6, 100), 0);
  assert.equal(p.nextWakeUp(6, 100), 120);
  assert.equal(p.toAsk(6, 119), 0);
  assert.equal(p.toAsk(6, 120), 1);
});

test('an idle worker asks at most ten times in its first second, then once every five seconds', () => {
  const p = pacerOf(rule());
  const sentAt = [];
  let now = 0;
  while (now < 30_000) {
    const count = p.toAsk(0, now);
    if (count > 0) {
      sentAt.push(now);
      p.asked(`r${now}`, count, now);
      p.answered(`r${now}`, true, null, now + 5); // empty, after a round trip of 5 ms
    }
    now = Math.max(now + 1, p.nextWakeUp(0, now));
  }
  assert.deepEqual(sentAt, [0, 105, 310, 715, 1520, 3125, 6330, 11335, 16340, 21345, 26350]);
  assert.ok(sentAt.filter((t) => t < 1000).length <= 10);
});
