import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client, CommandRefused } from '../src/index.js';
import { split } from '../src/batches.js';

/** A connection that records each command and answers with the next canned reply. */
function fakeClient(...replies) {
  const sent = [];
  const connection = {
    replyTo: 'client-test',
    async call(namespace, command) {
      sent.push({ namespace, ...command });
      return replies.shift();
    },
  };
  return { client: new Client({ namespace: 'ns', timeoutMs: 1000 }, connection), sent };
}

test('a refused command rejects with its error code', async () => {
  const { client } = fakeClient({ ok: false, error: { code: 'no_such_work_spec', message: 'no work spec "x"' } });
  await assert.rejects(client.setWorkSpecMeta('x', { paused: true }), (error) => {
    assert.ok(error instanceof CommandRefused);
    assert.equal(error.code, 'no_such_work_spec');
    assert.equal(error.reason, 'no work spec "x"');
    assert.equal(error.message, 'no_such_work_spec: no work spec "x"');
    return true;
  });
});

test('replies are typed results', async () => {
  const attempt = {
    attempt_id: '7', work_spec_name: 's', work_unit_name: 'u', worker: 'w', status: 'finished', data: { n: 1 },
    start_time: '2026-11-22T15:23:56.734Z', expiration_time: '2026-11-22T15:33:56.734Z',
    end_time: '2026-11-22T15:24:00.000Z', active: true,
    progress: { fraction: 0.5, message: 'half', time: '2026-11-22T15:23:58.000Z' },
  };
  const { client, sent } = fakeClient(
    { ok: true, result: { name: 's', data: { name: 's' }, meta: { paused: true }, counts: { available: 2 } } },
    { ok: true, result: { added: 2, work_unit_names: ['a', 'b'] } },
    { ok: true, result: { added: ['a'], replaced: [], kept: ['b'], work_unit_names: ['a', 'b'] } },
    { ok: true, result: { namespace: 'ns', worker: 'w', request_id: 'r', attempts: [attempt], retry_after_ms: 40 } },
    { ok: true, result: attempt },
    { ok: true, result: { finished: 1, errors: [{ attempt_id: '9', code: 'not_pending', message: 'm' }] } },
    { ok: true, result: { reset: 3 } },
    { ok: true, result: { name: 'w', active: false, mode: 'run', data: {}, expired: false, active_attempts: ['7'] } },
  );
  const spec = await client.setWorkSpec({ name: 's' });
  assert.deepEqual([spec.name, spec.count('available'), spec.count('failed'), spec.paused], ['s', 2, 0, true]);
  const added = await client.addWorkUnits('s', [{ name: 'a' }, { name: 'b' }]);
  assert.deepEqual({ ...added }, { added: 2, workUnitNames: ['a', 'b'], addedNames: [], replaced: [], kept: [] });
  const kept = await client.addWorkUnits('s', [{ name: 'a' }, { name: 'b' }], 'keep');
  assert.deepEqual({ ...kept }, { added: 1, workUnitNames: ['a', 'b'], addedNames: ['a'], replaced: [], kept: ['b'] });
  const assignment = await client.requestAttempts({ worker: 'w', count: 5, leaseMs: 1500, workSpecs: ['s'], requestId: 'r' });
  assert.equal(assignment.retryAfterMs, 40);
  assert.equal(assignment.attempts[0].attemptId, '7');
  assert.deepEqual(assignment.attempts[0].startTime, new Date('2026-11-22T15:23:56.734Z'));
  const info = await client.finishAttempt('7', { n: 1 });
  assert.deepEqual([info.status, info.active, info.endTime.toISOString(), info.progress.fraction], [
    'finished', true, '2026-11-22T15:24:00.000Z', 0.5,
  ]);
  const finished = await client.finishAttempts([{ attemptId: '7', data: { n: 1 } }, { attemptId: '9' }]);
  assert.deepEqual({ ...finished }, { finished: 1, errors: [{ attemptId: '9', code: 'not_pending', message: 'm' }] });
  assert.equal(await client.resetWorkUnits('s', { statuses: ['failed'] }), 3);
  const worker = await client.deactivateWorker('w');
  assert.deepEqual([worker.active, worker.activeAttempts], [false, ['7']]);
  assert.deepEqual(sent.map(({ request_id, ...command }) => command), [
    { namespace: 'ns', command: 'set_work_spec', work_spec: { name: 's' } },
    { namespace: 'ns', command: 'add_work_units', work_spec_name: 's', work_units: [{ name: 'a' }, { name: 'b' }] },
    { namespace: 'ns', command: 'add_work_units', work_spec_name: 's', work_units: [{ name: 'a' }, { name: 'b' }], if_exists: 'keep' },
    { namespace: 'ns', command: 'request_attempts', worker: 'w', count: 5, lifetime: 1.5, work_specs: ['s'] },
    { namespace: 'ns', command: 'finish_attempt', attempt_id: '7', data: { n: 1 } },
    { namespace: 'ns', command: 'finish_attempts', attempts: [{ attempt_id: '7', data: { n: 1 } }, { attempt_id: '9' }] },
    { namespace: 'ns', command: 'reset_work_units', work_spec_name: 's', query: { statuses: ['failed'] } },
    { namespace: 'ns', command: 'deactivate_worker', worker: 'w' },
  ]);
  assert.equal(sent[3].request_id, 'r');
});

test('attempt commands carry their options on the wire', async () => {
  const ok = { ok: true, result: { attempt_id: '1', status: 'pending' } };
  const { client, sent } = fakeClient(ok, ok, ok, ok);
  await client.renewAttempt('1', { extendMs: 20_000, progress: { fraction: 0.25, message: 'm'.repeat(1200) } });
  await client.failAttempt('1', { traceback: 't' }, true);
  await client.failAttempt('1', { traceback: 't' });
  await client.retryAttempt('1', { delayMs: 2500, release: true });
  assert.deepEqual(sent.map(({ request_id, namespace, ...command }) => command), [
    { command: 'renew_attempt', attempt_id: '1', extend: 20, progress: { fraction: 0.25, message: 'm'.repeat(1000) } },
    { command: 'fail_attempt', attempt_id: '1', data: { traceback: 't' }, retryable: true },
    { command: 'fail_attempt', attempt_id: '1', data: { traceback: 't' } },
    { command: 'retry_attempt', attempt_id: '1', delay: 2.5, release: true },
  ]);
  await assert.rejects(client.renewAttempt('1', { progress: { fraction: 1.5 } }), RangeError);
});

test('long lists go in commands of at most 1000 items and 256 KiB', () => {
  const small = Array.from({ length: 2500 }, (_, i) => ({ name: `u${i}` }));
  assert.deepEqual(split(small).map((batch) => batch.length), [1000, 1000, 500]);
  const large = Array.from({ length: 5 }, (_, i) => ({ name: `u${i}`, data: { text: 'x'.repeat(100_000) } }));
  assert.deepEqual(split(large).map((batch) => batch.length), [2, 2, 1]);
  assert.deepEqual(split([]), [[]]);
});
