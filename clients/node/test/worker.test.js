import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client, Worker } from '../src/index.js';

/** Stands for the app: records every command, answers calls, and lets the test answer requests. */
class FakeConnection {
  constructor(onRequest) {
    this.replyTo = 'client-fake';
    this.commands = [];
    this.onRequest = onRequest;
  }

  async watchAssignments(worker, sink) {
    this.assign = (record) => setImmediate(() => sink(structuredClone(record)));
  }

  async stopWatching() {}

  async send(namespace, command) {
    this.commands.push(structuredClone(command));
    if (command.command === 'request_attempts') this.onRequest(command, this);
  }

  async call(namespace, command) {
    this.commands.push(structuredClone(command));
    if (command.command === 'finish_attempts') {
      return { ok: true, result: { finished: command.attempts.length, errors: [] } };
    }
    return { ok: true, result: { name: command.worker, attempt_id: command.attempt_id } };
  }
}

function answer(request, attempts) {
  return {
    namespace: 'ns',
    worker: request.worker,
    request_id: request.request_id,
    attempts: attempts.map((id) => ({ attempt_id: id, work_spec_name: 's', work_unit_name: `u${id}`, data: {} })),
  };
}

test('a lost request is sent again with its id, and the attempts of one request run once', async () => {
  let requests = 0;
  const connection = new FakeConnection((request, app) => {
    requests++;
    if (requests === 1) return; // lost
    if (requests === 2) {
      app.assign(answer(request, ['7'])); // both copies answered: the second copy's answer comes too
      app.assign(answer(request, ['7']));
      return;
    }
    app.assign(answer(request, []));
  });
  const client = new Client({ namespace: 'ns', timeoutMs: 300 }, connection);
  const runs = [];
  const worker = new Worker(client, {
    name: 'w',
    backoffMs: [50, 100],
    handleSignals: false,
    handler: async (attempt) => {
      runs.push(attempt.id);
      return { n: 1 };
    },
  });
  await worker.start();
  while (worker.finished < 1) await new Promise((resolve) => setTimeout(resolve, 10));
  await worker.stop();
  const sent = connection.commands.filter((command) => command.command === 'request_attempts');
  assert.equal(sent[0].request_id, sent[1].request_id);
  assert.deepEqual(sent[0], { ...sent[1] });
  assert.notEqual(sent[2].request_id, sent[0].request_id);
  assert.deepEqual(runs, ['7']);
  const finishes = connection.commands.filter((command) => command.command === 'finish_attempts');
  assert.deepEqual(finishes.flatMap((command) => command.attempts), [{ attempt_id: '7', data: { n: 1 } }]);
  assert.deepEqual(connection.commands.at(-1), { command: 'deactivate_worker', worker: 'w' });
});

test('finishes go out in batches of up to 100', async () => {
  const ids = Array.from({ length: 250 }, (_, i) => String(i + 1));
  let given = false;
  const connection = new FakeConnection((request, app) => {
    app.assign(answer(request, given ? [] : ids));
    given = true;
  });
  const client = new Client({ namespace: 'ns', timeoutMs: 1000 }, connection);
  const worker = new Worker(client, { name: 'w', handleSignals: false, prefetch: 249, handler: () => ({}) });
  await worker.start();
  while (worker.finished < 250) await new Promise((resolve) => setTimeout(resolve, 10));
  await worker.stop();
  const batches = connection.commands.filter((command) => command.command === 'finish_attempts');
  assert.deepEqual(batches.map((command) => command.attempts.length), [100, 100, 50]);
  assert.deepEqual(connection.commands.filter((command) => command.command === 'request_attempts')[0].count, 250);
});
