// Against a real broker and app (skipped without COORDINATE_BOOTSTRAP_SERVERS and COORDINATE_HTTP_URL): each
// test in a namespace of its own.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CommandRefused, FailAttempt, RetryLater, Worker } from '../src/index.js';
import { connect, freshNamespace, get, latch, skip, unit, waitFor } from './helpers.js';

let base;
const namespaces = [];
const workers = [];

before(async () => {
  if (!skip) base = await connect();
});

after(async () => {
  if (!base) return;
  await Promise.allSettled(workers.map((w) => w.stop())); // those of a test that failed before its own stop
  await Promise.allSettled(namespaces.map((namespace) => base.inNamespace(namespace).destroyNamespace()));
  await base.close();
});

function client() {
  const namespace = freshNamespace();
  namespaces.push(namespace);
  return base.inNamespace(namespace);
}

function worker(coordinate, options) {
  const w = new Worker(coordinate, { backoffMs: [50, 200], closeTimeoutMs: 2000, handleSignals: false, ...options });
  workers.push(w);
  return w;
}

test('commands answer with typed replies', { skip, timeout: 40_000 }, async () => {
  const c = client();
  const spec = await c.setWorkSpec({ name: 'cmd', max_retries: 3 });
  assert.deepEqual([spec.name, spec.data, spec.meta.max_retries, spec.counts], ['cmd', { name: 'cmd', max_retries: 3 }, 3, {}]);
  const added = await c.addWorkUnits('cmd', [{ name: 'a', data: { n: 1 }, priority: 5 }, { name: 'b' }]);
  assert.deepEqual({ ...added }, { added: 2, workUnitNames: ['a', 'b'], addedNames: [], replaced: [], kept: [] });
  const kept = await c.addWorkUnits('cmd', [{ name: 'a' }, { name: 'c' }], 'keep');
  assert.deepEqual({ ...kept }, { added: 1, workUnitNames: ['a', 'c'], addedNames: ['c'], replaced: [], kept: ['a'] });

  const assignment = await c.requestAttempts({ worker: 'w1', count: 2, leaseMs: 60_000, workSpecs: ['cmd'] });
  assert.deepEqual(
    assignment.attempts.map((attempt) => [attempt.workUnitName, attempt.data]),
    [['a', { n: 1 }], ['b', {}]],
  );
  assert.equal(assignment.worker, 'w1');
  assert.equal(assignment.attempts[0].expirationTime - assignment.attempts[0].startTime, 60_000);
  const [a, b] = assignment.attempts;
  const renewed = await c.renewAttempt(a.attemptId, { extendMs: 120_000, progress: { fraction: 0.25, message: 'quarter' } });
  assert.deepEqual([renewed.status, renewed.active, renewed.progress.fraction, renewed.progress.message], [
    'pending', true, 0.25, 'quarter',
  ]);
  const finished = await c.finishAttempt(a.attemptId, { out: 1 });
  assert.deepEqual([finished.status, finished.data, finished.worker], ['finished', { out: 1 }, 'w1']);
  const batch = await c.finishAttempts([{ attemptId: b.attemptId, data: { out: 2 } }, { attemptId: '999999' }]);
  assert.deepEqual({ ...batch }, {
    finished: 1,
    errors: [{ attemptId: '999999', code: 'no_such_attempt', message: 'no attempt "999999"' }],
  });

  assert.equal(await c.prioritizeWorkUnits('cmd', { names: ['c'] }, 9), 1);
  const paused = await c.setWorkSpecMeta('cmd', { paused: true });
  assert.deepEqual([paused.paused, paused.counts], [true, { available: 1, finished: 2 }]);
  const heartbeat = await c.workerHeartbeat('w1', { mode: 'run', data: { x: 1 }, expireMs: 60_000 });
  assert.deepEqual([heartbeat.name, heartbeat.active, heartbeat.data, heartbeat.expired], ['w1', true, { x: 1 }, false]);
  const deactivated = await c.deactivateWorker('w1');
  assert.equal(deactivated.active, false);
  assert.equal(await c.resetWorkUnits('cmd', { statuses: ['finished'] }), 2);
  assert.equal(await c.cancelWorkUnits('cmd', { names: ['a'] }), 1);
  assert.equal(await c.deleteWorkUnits('cmd', { names: ['c'] }), 1);
  assert.equal(await c.deleteWorkSpec('cmd'), undefined);
});

test('a refused command rejects with CommandRefused and its code', { skip, timeout: 40_000 }, async () => {
  const c = client();
  await assert.rejects(c.setWorkSpecMeta('nope', { paused: true }), (error) => {
    assert.ok(error instanceof CommandRefused);
    assert.equal(error.code, 'no_such_work_spec');
    assert.equal(error.reason, 'no work spec "nope"');
    return true;
  });
  await assert.rejects(c.finishAttempt('424242'), { code: 'no_such_attempt' });
  await assert.rejects(c.setWorkSpec({ name: '' }), { code: 'no_work_spec_name' });
});

test('a worker finishes units with what its handler returns', { skip, timeout: 40_000 }, async () => {
  const c = client();
  await c.setWorkSpec({ name: 'squares' });
  const units = Array.from({ length: 50 }, (_, i) => ({ name: `n${i}`, data: { n: i } }));
  await c.addWorkUnits('squares', units);
  const w = worker(c, { specs: ['squares'], concurrency: 4, handler: async (attempt) => ({ square: attempt.data.n ** 2 }) });
  await w.start();
  await waitFor(() => w.finished === 50, '50 finishes');
  await w.stop();
  assert.deepEqual([w.finished, w.failed, w.retried], [50, 0, 0]);
  const seven = await unit(c.namespace, 'squares', 'n7');
  assert.deepEqual([seven.status, seven.data, seven.attempt_count], ['finished', { square: 49 }, 1]);
  const record = await get(`/api/namespaces/${c.namespace}/workers/${encodeURIComponent(w.name)}`);
  assert.deepEqual([record.active, record.data.language, record.data.concurrency, record.data.work_specs], [
    false, 'node', 4, ['squares'],
  ]);
});

test('an error is a retryable failure, FailAttempt a permanent one', { skip, timeout: 40_000 }, async () => {
  const c = client();
  await c.setWorkSpec({ name: 'flaky', retry: { max_attempts: 3, initial_delay: 0 } });
  await c.addWorkUnits('flaky', [{ name: 'always' }, { name: 'once' }, { name: 'permanent' }]);
  const runs = new Map();
  const w = worker(c, {
    specs: ['flaky'],
    handler: async (attempt) => {
      const run = (runs.get(attempt.unit) ?? 0) + 1;
      runs.set(attempt.unit, run);
      if (attempt.unit === 'permanent') throw new FailAttempt('bad input', { why: 'bad input' });
      if (attempt.unit === 'always' || run === 1) throw new Error(`boom ${run}`);
      return { run };
    },
  });
  await w.start();
  const settled = (view) => view.status === 'failed' || view.status === 'finished';
  const [always, once, permanent] = await waitFor(async () => {
    const views = await Promise.all(['always', 'once', 'permanent'].map((name) => unit(c.namespace, 'flaky', name)));
    return views.every(settled) && views;
  }, 'the units to settle');
  await w.stop();
  assert.deepEqual([always.status, always.attempt_count], ['failed', 3]);
  assert.match(always.data.traceback, /^Error: boom 3\n {4}at /);
  assert.deepEqual([once.status, once.attempt_count, once.data], ['finished', 2, { run: 2 }]);
  assert.deepEqual([permanent.status, permanent.attempt_count, permanent.data], ['failed', 1, { why: 'bad input' }]);
  assert.deepEqual([w.failed, w.finished, w.retried], [5, 1, 0]);
});

test('RetryLater gives the unit back for after its delay', { skip, timeout: 40_000 }, async () => {
  const c = client();
  await c.setWorkSpec({ name: 'later' });
  await c.addWorkUnits('later', [{ name: 'u' }]);
  let runs = 0;
  const w = worker(c, {
    specs: ['later'],
    handler: async () => {
      runs++;
      if (runs === 1) throw new RetryLater('not yet', 400);
      return { second: true };
    },
  });
  await w.start();
  const view = await waitFor(async () => {
    const current = await unit(c.namespace, 'later', 'u');
    return current.status === 'finished' && current;
  }, 'the unit to finish');
  await w.stop();
  const [first, second] = view.attempts;
  assert.deepEqual([first.status, first.data, second.status, second.data], [
    'retryable', { traceback: 'not yet' }, 'finished', { second: true },
  ]);
  assert.ok(Date.parse(second.start_time) - Date.parse(first.end_time) >= 400);
  assert.deepEqual([view.attempt_count, w.retried, w.failed, w.finished], [2, 1, 0, 1]);
});

test('progress shows in the unit\'s attempt', { skip, timeout: 40_000 }, async () => {
  const c = client();
  await c.setWorkSpec({ name: 'progress' });
  await c.addWorkUnits('progress', [{ name: 'u' }]);
  const seen = latch();
  const w = worker(c, {
    specs: ['progress'],
    handler: async (attempt) => {
      attempt.progress(0.5, 'half way');
      await seen.opened;
      return { done: true };
    },
  });
  await w.start();
  const running = await waitFor(async () => {
    const view = await unit(c.namespace, 'progress', 'u');
    return view.attempts?.[0]?.progress && view;
  }, 'the progress');
  seen.open();
  assert.deepEqual([running.status, running.attempts[0].progress.fraction, running.attempts[0].progress.message], [
    'pending', 0.5, 'half way',
  ]);
  await waitFor(() => w.finished === 1, 'the finish');
  await w.stop();
  const done = await unit(c.namespace, 'progress', 'u');
  assert.deepEqual([done.status, done.attempts[0].progress.message], ['finished', 'half way']);
});

test('a cancellation aborts the handler and drops its result', { skip, timeout: 40_000 }, async () => {
  const c = client();
  await c.setWorkSpec({ name: 'cancel' });
  await c.addWorkUnits('cancel', [{ name: 'u' }]);
  const started = latch();
  const ended = latch();
  let callbacks = 0;
  const w = worker(c, {
    specs: ['cancel'],
    handler: async (attempt) => {
      attempt.onCancel(() => callbacks++);
      started.open(attempt);
      await new Promise((resolve) => attempt.signal.addEventListener('abort', resolve));
      ended.open();
      return { dropped: true };
    },
  });
  await w.start();
  const attempt = await started.opened;
  assert.equal(await c.cancelWorkUnits('cancel', { names: ['u'] }), 1);
  await ended.opened;
  assert.deepEqual([attempt.cancelled, attempt.signal.aborted, callbacks], [true, true, 1]);
  await w.stop();
  const view = await unit(c.namespace, 'cancel', 'u');
  assert.deepEqual([view.status, view.attempts[0].status, view.attempts[0].data], ['cancelled', 'cancelled', {}]);
  assert.deepEqual([w.finished, w.failed, w.retried], [0, 0, 0]);
});

test('a handler longer than the lease keeps it by renewals', { skip, timeout: 40_000 }, async () => {
  const c = client();
  await c.setWorkSpec({ name: 'long' });
  await c.addWorkUnits('long', [{ name: 'u' }]);
  const w = worker(c, {
    specs: ['long'],
    leaseMs: 2000,
    handler: async () => {
      await new Promise((resolve) => setTimeout(resolve, 4500));
      return { slept: true };
    },
  });
  await w.start();
  await waitFor(() => w.finished === 1, 'the finish', 30_000);
  await w.stop();
  const view = await unit(c.namespace, 'long', 'u');
  assert.deepEqual([view.status, view.attempt_count, view.attempts.length, view.data], ['finished', 1, 1, { slept: true }]);
});

test('a graceful stop releases the attempts it holds', { skip, timeout: 40_000 }, async () => {
  const c = client();
  await c.setWorkSpec({ name: 'stop' });
  await c.addWorkUnits('stop', ['a', 'b', 'c', 'd'].map((name) => ({ name })));
  const started = latch();
  const w = worker(c, {
    specs: ['stop'],
    concurrency: 1,
    prefetch: 3,
    closeTimeoutMs: 300,
    handler: async (attempt) => {
      started.open();
      await new Promise((_, reject) => attempt.signal.addEventListener('abort', () => reject(attempt.signal.reason)));
    },
  });
  await w.start();
  await started.opened;
  await waitFor(async () => {
    const spec = await get(`/api/namespaces/${c.namespace}/work-specs/stop`);
    return spec.counts.pending === 4;
  }, 'four pending units');
  await w.stop();
  const views = await Promise.all(['a', 'b', 'c', 'd'].map((name) => unit(c.namespace, 'stop', name)));
  assert.deepEqual(
    views.map((view) => [view.status, view.attempts.map((attempt) => attempt.status)]),
    ['a', 'b', 'c', 'd'].map(() => ['available', ['retryable']]),
  );
  assert.deepEqual([w.retried, w.failed, w.finished], [4, 0, 0]);
  const record = await get(`/api/namespaces/${c.namespace}/workers/${encodeURIComponent(w.name)}`);
  assert.deepEqual([record.active, record.active_attempts], [false, []]);
});
