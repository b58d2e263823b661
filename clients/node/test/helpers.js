// Shared by the tests that need a running broker and app (COORDINATE_BOOTSTRAP_SERVERS, COORDINATE_HTTP_URL).

import { randomBytes } from 'node:crypto';
import { Client } from '../src/index.js';

export const BOOTSTRAP = process.env.COORDINATE_BOOTSTRAP_SERVERS;
export const HTTP = process.env.COORDINATE_HTTP_URL;
/** The reason to skip, or false: without a broker and app the tests would only hang. */
export const skip =
  BOOTSTRAP && HTTP ? false : 'set COORDINATE_BOOTSTRAP_SERVERS and COORDINATE_HTTP_URL to run it against an app';

export function freshNamespace() {
  return `node-test-${randomBytes(4).toString('hex')}`;
}

export async function connect() {
  return new Client({ bootstrapServers: BOOTSTRAP, timeoutMs: 20_000 }).connect();
}

/** GET a path of the HTTP API as JSON. */
export async function get(path) {
  const response = await fetch(`${HTTP}${path}`);
  return response.json();
}

export function unit(namespace, spec, name) {
  return get(`/api/namespaces/${namespace}/work-specs/${spec}/work-units/${encodeURIComponent(name)}`);
}

/** Polls `check` until it returns a truthy value, which it returns; fails after `timeoutMs`. */
export async function waitFor(check, what, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A promise with its resolve function, for a test to release a handler. */
export function latch() {
  let open;
  const opened = new Promise((resolve) => (open = resolve));
  return { opened, open };
}
