// The order a worker's held attempts fall due for renewal, and when their leases count from, on a clock of our own
// (milliseconds): the same values as the Java worker's HeldAttemptsTest.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HeldAttempts } from '../src/held.js';
import { Backoff, HoldingRule, RequestPacer } from '../src/pacer.js';
import { WorkRequests } from '../src/requests.js';
import { Assignment } from '../src/results.js';

const attempt = (id) => ({ id });
const ids = (helds) => helds.map((held) => held.attempt.id);

test('renewals fall due in the order attempts came, and a renewed one moves to the end', () => {
  const held = new HeldAttempts(15);
  held.hold(attempt('a'), 0);
  held.hold(attempt('b'), 5);
  held.hold(attempt('c'), 10);
  assert.equal(held.nextRenewal(), 15);
  assert.deepEqual(held.dueForRenewal(14), []);
  assert.deepEqual(ids(held.dueForRenewal(20)), ['a', 'b']);
  assert.equal(held.nextRenewal(), 25); // c's
  assert.deepEqual(ids(held.inRenewalOrder()), ['c', 'a', 'b']);
  assert.deepEqual(ids(held.dueForRenewal(25)), ['c']);
  assert.equal(held.get('a').renewAt, 35);
});

test('a renewal with progress moves the attempt after the others', () => {
  const held = new HeldAttempts(15);
  held.hold(attempt('a'), 0);
  held.hold(attempt('b'), 5);
  held.renewed(held.get('a'), 8);
  assert.equal(held.nextRenewal(), 20); // b's
  assert.deepEqual(ids(held.inRenewalOrder()), ['b', 'a']);
  assert.equal(held.get('a').renewAt, 23);
});

test("an attempt of a slow answer falls due from its request's send, not from its arrival", () => {
  const held = new HeldAttempts(15);
  held.hold(attempt('a'), 10);
  held.hold(attempt('b'), 2); // came after a, but its request went out at 2: its lease began before a's
  assert.equal(held.nextRenewal(), 17);
  assert.deepEqual(ids(held.inRenewalOrder()), ['b', 'a']);
  assert.deepEqual(ids(held.dueForRenewal(17)), ['b']);
  assert.deepEqual(ids(held.dueForRenewal(25)), ['a']);
  held.delete('b');
  assert.deepEqual(ids(held.inRenewalOrder()), ['a']);
  assert.equal(held.nextRenewal(), 40);
});

test('a lost lease is never renewed again', () => {
  const held = new HeldAttempts(15);
  held.hold(attempt('a'), 0).lost = true;
  held.hold(attempt('b'), 1);
  assert.equal(held.nextRenewal(), 16);
  assert.deepEqual(ids(held.dueForRenewal(100)), ['b']);
  held.delete('b');
  assert.equal(held.nextRenewal(), Infinity);
  assert.equal(held.size, 1);
});

test("an answer's leases count from its request's first send, though it was sent again", () => {
  const sent = [];
  const client = { timeoutMs: 100, namespace: 'ns', connection: { send: async (ns, command) => sent.push(command) } };
  const holding = new HoldingRule({ concurrency: 1, leaseMs: 30_000, prefetch: 0 });
  const backoff = new Backoff(100, 5000);
  const pacer = new RequestPacer({ concurrency: 1, holding, backoff, answerTimeoutMs: 100, now: 0 });
  const requests = new WorkRequests(client, 'w', { specs: ['s'], leaseMs: 30_000, pacer, log: () => {} });
  requests.ask(1, 7);
  requests.resendOverdue(107);
  assert.equal(sent.length, 2);
  const answer = new Assignment({ worker: 'w', request_id: sent[0].request_id, attempts: [{ attempt_id: '1' }] });
  assert.equal(requests.answered(answer, 150), 7);
  assert.equal(requests.answered(answer, 160), null); // the answer to the copy sent again
});
