#!/usr/bin/env node
// The conformance runner (clients/conformance/README.md): one Worker with the scripted handler, or a no-op one
// with --noop, until SIGTERM or SIGINT; then a graceful stop, the counters on stdout, and exit status 0.

import { parseArgs } from 'node:util';
import { Client, Worker } from '../src/index.js';
import { scriptedHandler } from '../src/scripted.js';

const { values } = parseArgs({
  options: {
    'bootstrap-servers': { type: 'string', default: '127.0.0.1:9092' },
    namespace: { type: 'string' },
    spec: { type: 'string', multiple: true, default: [] },
    concurrency: { type: 'string', default: '1' },
    'lease-seconds': { type: 'string' },
    prefetch: { type: 'string' },
    name: { type: 'string' },
    'max-backoff-seconds': { type: 'string' },
    noop: { type: 'boolean', default: false },
  },
  strict: true,
});
if (!values.namespace) {
  process.stderr.write('--namespace is required\n');
  process.exit(2);
}

const stopping = new AbortController();
const options = {
  specs: values.spec,
  concurrency: Number(values.concurrency),
  handler: values.noop ? () => ({}) : scriptedHandler(stopping.signal),
  handleSignals: false, // the runner's own handlers end the scripted sleeps first
};
if (values['lease-seconds'] !== undefined) options.leaseMs = Number(values['lease-seconds']) * 1000;
if (values.prefetch !== undefined) options.prefetch = Number(values.prefetch);
if (values.name !== undefined) options.name = values.name;
if (values['max-backoff-seconds'] !== undefined) {
  const maxMs = Number(values['max-backoff-seconds']) * 1000;
  options.backoffMs = [Math.min(100, maxMs), maxMs];
}

const client = await new Client({ bootstrapServers: values['bootstrap-servers'], namespace: values.namespace }).connect();
const worker = new Worker(client, options);
let stopRequested = false;
const stop = async () => {
  if (stopRequested) return;
  stopRequested = true;
  stopping.abort(new Error('the runner stopped'));
  try {
    await worker.stop();
  } finally {
    await client.close();
    const cpu = process.cpuUsage();
    process.stderr.write(`conformance runner: cpu user ${cpu.user / 1000} ms, system ${cpu.system / 1000} ms\n`);
    process.stdout.write(
      `finished=${worker.finished} failed=${worker.failed} retried=${worker.retried} requests=${worker.requests}\n`,
      () => process.exit(0),
    );
  }
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
await worker.start();
process.stdout.write('ready\n');
