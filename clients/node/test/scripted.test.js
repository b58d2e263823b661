import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FailAttempt, RetryLater } from '../src/errors.js';
import { outcomeOf } from '../src/outcome.js';
import { scriptedHandler } from '../src/scripted.js';

/** An attempt as the worker gives it, recording the progress reported. */
function attempt(unit, data) {
  const controller = new AbortController();
  return {
    spec: 's',
    unit,
    data,
    signal: controller.signal,
    reported: [],
    progress(fraction, message) {
      this.reported.push([fraction, message]);
    },
    cancel: () => controller.abort(new Error('cancelled')),
  };
}

test('no script finishes with {ok: true}', async () => {
  const handle = scriptedHandler(new AbortController().signal);
  assert.deepEqual(await handle(attempt('u', {})), { ok: true });
});

test('run r plays step min(r, length - 1), counted per unit', async () => {
  const handle = scriptedHandler(new AbortController().signal);
  const data = {
    script: [
      { outcome: 'fail', message: 'first' },
      { outcome: 'retry_later', message: 'second', delay_ms: 250 },
      { outcome: 'finish', result: { n: 3 } },
    ],
  };
  await assert.rejects(handle(attempt('u', data)), (error) => !(error instanceof FailAttempt) && error.message === 'first');
  await assert.rejects(handle(attempt('u', data)), (error) => error instanceof RetryLater && error.delayMs === 250);
  assert.deepEqual(await handle(attempt('u', data)), { n: 3 });
  assert.deepEqual(await handle(attempt('u', data)), { n: 3 });
  await assert.rejects(handle(attempt('other', data)), { message: 'first' });
});

test('fail_permanent is a FailAttempt with the step\'s result as data', async () => {
  const handle = scriptedHandler(new AbortController().signal);
  const data = { script: [{ outcome: 'fail_permanent', message: 'bad input', result: { code: 7 } }] };
  await assert.rejects(
    handle(attempt('u', data)),
    (error) => error instanceof FailAttempt && error.message === 'bad input' && error.retryable === false &&
      error.data.code === 7,
  );
  assert.deepEqual(outcomeOf(new FailAttempt('bad input', { code: 7 }), false), {
    fail: { data: { code: 7 }, retryable: false },
  });
  assert.deepEqual(outcomeOf(new FailAttempt('no data'), false), {
    fail: { data: { traceback: 'no data' }, retryable: false },
  });
});

test('a step sleeps, then reports progress, then ends', async () => {
  const handle = scriptedHandler(new AbortController().signal);
  const given = attempt('u', { script: [{ sleep_ms: 50, progress: [0.5, 'half'], outcome: 'finish' }] });
  const started = performance.now();
  assert.deepEqual(await handle(given), { ok: true });
  assert.ok(performance.now() - started >= 45);
  assert.deepEqual(given.reported, [[0.5, 'half']]);
});

test('a cancellation or the stop ends a sleep or a hang early', async () => {
  const stopping = new AbortController();
  const handle = scriptedHandler(stopping.signal);
  const cancelled = attempt('a', { script: [{ sleep_ms: 60_000, outcome: 'finish' }] });
  const running = handle(cancelled);
  cancelled.cancel();
  await assert.rejects(running, { message: 'cancelled' });
  const hanging = handle(attempt('b', { script: [{ outcome: 'hang' }] }));
  stopping.abort(new Error('stopped'));
  await assert.rejects(hanging, { message: 'stopped' });
});

test('what a handler throws is reported as docs/client.md says', () => {
  const plain = outcomeOf(new Error('boom'), false);
  assert.equal(plain.fail.retryable, true);
  assert.match(plain.fail.data.traceback, /^Error: boom\n {4}at /);
  assert.deepEqual(outcomeOf(new RetryLater('later', 1500), false), {
    giveBack: { data: { traceback: 'later' }, delayMs: 1500, release: false },
  });
  assert.deepEqual(outcomeOf(new Error('boom'), true), {
    giveBack: { data: { traceback: 'the worker stopped: Error: boom' }, delayMs: 0, release: true },
  });
  const long = new Error('x'.repeat(20_000));
  assert.equal(outcomeOf(long, false).fail.data.traceback.length, 16_384);
});
