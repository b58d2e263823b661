// What the dashboard shows of a spec's flow control: its rate limit with its tokens now
// (docs/reference.md#rate-limits), its group cap with the groups at it and its group rate limit
// (docs/reference.md#concurrency-groups).
import {fact, h} from './dom.js';

/** "20 per 1 s, burst 30". */
function rate(limit) {
  return `${limit.max} per ${limit.per_seconds} s, burst ${limit.burst}`;
}

/** The limits of the spec's meta as facts, or null when it has none (or the spec could not be read). */
export function specLimits(meta) {
  const facts = [
    meta?.rate_limit && fact('Rate limit', h('span', {'data-testid': 'rate-limit'},
      `${rate(meta.rate_limit)}; ${meta.rate_limit.tokens} tokens now`)),
    meta?.group_max_running && fact('Group cap', h('span', {'data-testid': 'group-cap'},
      `${meta.group_max_running} running per group; ${meta.groups_at_cap} groups at it`)),
    meta?.group_rate_limit && fact('Group rate limit', h('span', {'data-testid': 'group-rate-limit'},
      `${rate(meta.group_rate_limit)}, per group`)),
  ].filter(Boolean);
  return facts.length ? h('dl', {class: 'facts', 'data-testid': 'spec-limits'}, facts) : null;
}
