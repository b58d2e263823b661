// What the dashboard shows of retries and progress: a unit's attempt count, next attempt, last error and its
// attempts' errors and progress; a spec's retries and failed attempts per minute, from its counters.
import * as api from './api.js';
import {MISSING, fact, h, time} from './dom.js';

/** As much of a traceback as the API's last_error keeps: its end, where the error itself usually is. */
const ERROR_TAIL = 2000;
/** A rate is the change of a counter over the samples of the last minute. */
const RATE_WINDOW_MS = 60000;
/** The counters shown as rates, by their names on /metrics. A server without them shows none. */
const RATES = [['coordinate_retries_total', 'Retries'], ['coordinate_attempts_failed_total', 'Failed attempts']];
const samples = new Map(); // per namespace and spec: [{at, counters}], oldest first

/** The spec's retries and failed attempts per minute, or null when this server does not count them. */
export async function specRates(ns, spec) {
  const body = await api.getOptional(api.paths.counters(ns, spec)).catch(() => null);
  const counters = body?.counters;
  const shown = RATES.filter(([name]) => typeof counters?.[name] === 'number');
  if (shown.length === 0) return null;
  const key = `${ns}\n${spec}`;
  const now = Date.now();
  let kept = (samples.get(key) ?? []).filter(s => now - s.at <= RATE_WINDOW_MS);
  // a counter that went down restarted (the instance did, or the namespace moved): older samples say nothing
  if (kept.some(s => shown.some(([name]) => (s.counters[name] ?? 0) > counters[name]))) kept = [];
  kept.push({at: now, counters});
  samples.set(key, kept);
  const first = kept[0];
  const seconds = (now - first.at) / 1000;
  return h('dl', {class: 'facts', 'data-testid': 'spec-rates'}, shown.map(([name, label]) => {
    const before = first.counters[name];
    const rate = seconds >= 1 && before !== undefined ? ((counters[name] - before) * 60) / seconds : null;
    return fact(`${label} per minute`, h('span', {'data-testid': `rate-${name}`},
      `${rate === null ? MISSING : rate.toFixed(1)} (${counters[name]} in all)`));
  }));
}

/** "45.6% resizing (time)": each part only when the attempt reported it. */
export function progressText(progress) {
  const parts = [];
  if (typeof progress.fraction === 'number') parts.push(`${Math.floor(progress.fraction * 1000) / 10}%`);
  if (progress.message) parts.push(progress.message);
  if (progress.time) parts.push(`(${time(progress.time)})`);
  return parts.join(' ');
}

function progressNode(progress, testid) {
  return h('span', {'data-testid': testid},
    typeof progress.fraction === 'number' && h('progress', {max: 1, value: progress.fraction}), ' ',
    progressText(progress));
}

/** The unit's facts of its retries: attempts counted, when it runs next, its latest attempt's progress. */
export function unitRetryFacts(unit) {
  const latest = unit.attempts?.[unit.attempts.length - 1];
  return [
    fact('Attempts counted', h('span', {'data-testid': 'unit-attempt-count'}, String(unit.attempt_count ?? MISSING))),
    unit.next_attempt_at && fact('Next attempt', h('span', {'data-testid': 'unit-next-attempt'},
      time(unit.next_attempt_at), unit.retrying ? ' (retrying)' : '')),
    latest?.progress && fact('Progress', progressNode(latest.progress, 'unit-progress')),
  ];
}

/** The unit's last error as the API gives it, under its own heading; nothing when it has none. */
export function lastError(unit) {
  if (!unit.last_error) return [];
  return [h('h2', {}, 'Last error'), h('pre', {class: 'json error', 'data-testid': 'last-error'}, unit.last_error)];
}

/** An attempt's error (the end of its traceback, or its lease running out) and progress, when it has them. */
export function attemptOutcome(attempt) {
  const traceback = attempt.data?.traceback;
  const failed = ['failed', 'retryable', 'expired'].includes(attempt.status);
  let error = null;
  if (failed && traceback !== undefined && traceback !== null) {
    const text = typeof traceback === 'string' ? traceback : JSON.stringify(traceback);
    error = h('pre', {class: 'json error', 'data-testid': 'attempt-error'},
      text.length > ERROR_TAIL ? `…${text.slice(-ERROR_TAIL)}` : text);
  } else if (attempt.status === 'expired') {
    error = h('p', {class: 'hint', 'data-testid': 'attempt-error'}, 'Lease expired');
  }
  return [
    attempt.progress && h('p', {}, 'Progress: ', progressNode(attempt.progress, 'attempt-progress')),
    error,
  ];
}
