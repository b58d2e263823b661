// The dashboard: hash routes, one view per route, live updates from the event feed with a polling fallback.
import * as api from './api.js';
import {MISSING, age, fact, h, jsonBlock, route, sparkline, time} from './dom.js';
import {attemptOutcome, lastError, specRates, unitRetryFacts} from './retries.js';
import {specLimits} from './limits.js';
import {specSchedule} from './schedule.js';

const STATUSES = ['blocked', 'delayed', 'available', 'pending', 'waiting', 'finished', 'failed', 'cancelled'];
const POLL_MS = 3000; // without the event feed, the numbers still move
const POLL_WHEN_LIVE_MS = 30000; // with it, a slow safety net
const DEBOUNCE_MS = 300; // a burst of events makes one refresh
const FEED_SIZE = 20;

const main = document.getElementById('main');
const message = document.querySelector('[data-testid="message"]');
const liveStatus = document.querySelector('[data-testid="live-status"]');
const tokenDialog = document.getElementById('token-dialog');
const tokenHelp = document.getElementById('token-help').textContent;

let current = null; // the shown view's refresh function
let lastRefresh = 0;

// ---- Messages and the token prompt

function say(text, isError = false) {
  message.textContent = text;
  message.hidden = !text;
  message.classList.toggle('error', isError);
}

function errorText(e) {
  return e instanceof api.ApiError ? `${e.code ?? `HTTP ${e.status}`}: ${e.message}` : String(e?.message ?? e);
}

function askToken(problem) {
  return new Promise(resolve => {
    const input = tokenDialog.querySelector('input');
    tokenDialog.querySelector('#token-help').textContent = problem ?? tokenHelp;
    input.value = '';
    tokenDialog.returnValue = '';
    tokenDialog.addEventListener('close',
      () => resolve(tokenDialog.returnValue === 'ok' ? input.value.trim() || null : null), {once: true});
    tokenDialog.showModal();
  });
}

/** Runs an action from a button: the button waits, the outcome is said, the view refreshes. */
async function act(button, label, action) {
  button.disabled = true;
  say(`${label}…`);
  try {
    say(await action());
  } catch (e) {
    say(`${label} failed: ${errorText(e)}`, true);
  } finally {
    button.disabled = false;
  }
  await refresh();
}

// ---- Refreshing: on events (debounced), else on a timer

let refreshTimer = null;
let refreshing = false;
let refreshAgain = false;

function scheduleRefresh() {
  if (refreshTimer === null) {
    refreshTimer = setTimeout(() => {
      refreshTimer = null;
      refresh();
    }, DEBOUNCE_MS);
  }
}

async function refresh() {
  if (!current) return;
  if (refreshing) {
    refreshAgain = true;
    return;
  }
  refreshing = true;
  lastRefresh = Date.now();
  try {
    await current();
  } catch (e) {
    say(errorText(e), true);
  } finally {
    refreshing = false;
    if (refreshAgain) {
      refreshAgain = false;
      scheduleRefresh();
    }
  }
}

setInterval(() => {
  if (!document.hidden && Date.now() - lastRefresh >= (live.open ? POLL_WHEN_LIVE_MS : POLL_MS)) refresh();
}, 1000);

/** Replaces a container's children, keeping the focus on the element with the same data-key. */
function fill(container, ...nodes) {
  const focused = container.contains(document.activeElement) ? document.activeElement.dataset.key : undefined;
  container.replaceChildren(...nodes.flat().filter(n => n !== null && n !== undefined && n !== false));
  if (focused !== undefined) {
    [...container.querySelectorAll('[data-key]')].find(el => el.dataset.key === focused)?.focus();
  }
}

// ---- The event feed of the shown namespace

const live = {
  ns: null,
  source: null,
  open: false,
  feed: [],
  retry: null,

  follow(ns) {
    if (ns === this.ns) return;
    this.stop();
    this.ns = ns;
    if (ns !== null) this.connect();
    showLive();
  },

  connect() {
    const source = new EventSource(api.paths.events(this.ns));
    this.source = source;
    source.addEventListener('open', () => {
      this.open = true;
      showLive();
    });
    source.addEventListener('batch', e => this.receive(e.data));
    source.addEventListener('error', () => {
      this.open = false;
      showLive();
      // Closed for good (this server has no event feed, or it failed): try again later, poll meanwhile.
      if (source.readyState === EventSource.CLOSED && this.source === source) {
        this.retry = setTimeout(() => this.source === source && this.connect(), POLL_WHEN_LIVE_MS);
      }
    });
  },

  stop() {
    clearTimeout(this.retry);
    this.source?.close();
    Object.assign(this, {ns: null, source: null, open: false, feed: []});
  },

  receive(data) {
    let batch;
    try {
      batch = JSON.parse(data);
    } catch {
      return;
    }
    for (const event of batch.events ?? []) this.feed.unshift({time: batch.time, ...event});
    this.feed.length = Math.min(this.feed.length, FEED_SIZE);
    renderFeed();
    scheduleRefresh();
  },
};

function showLive() {
  liveStatus.dataset.state = live.open ? 'live' : 'polling';
  liveStatus.textContent = live.open ? '● Live' : `Refresh every ${POLL_MS / 1000} s`;
  renderFeed();
}

function describe(event) {
  const names = [event.work_spec_name, event.work_unit_name].filter(n => n !== undefined && n !== null).join(' / ');
  const status = event.status ? ` → ${event.status}` : '';
  const worker = event.worker ? ` (${event.worker})` : '';
  return `${names}${status}${worker}`;
}

function renderFeed() {
  const list = main.querySelector('[data-testid="live-feed"]');
  if (!list) return;
  fill(list, live.feed.length
    ? live.feed.map(e => h('li', {'data-testid': 'live-event'},
      h('time', {datetime: e.time}, e.time ? new Date(e.time).toLocaleTimeString() : MISSING), ' ',
      h('span', {class: 'type'}, e.type), ' ', describe(e)))
    : h('li', {class: 'hint'}, live.open
      ? 'Waiting for events…'
      : `${MISSING} No event feed from this server now: the numbers refresh every ${POLL_MS / 1000} s.`));
}

// ---- Pieces shared by views

function crumbs(...items) {
  return h('nav', {'aria-label': 'Breadcrumb', class: 'crumbs'}, h('ol', {}, items.map(([label, href]) =>
    h('li', {}, href ? h('a', {href}, label) : h('span', {'aria-current': 'page'}, label)))));
}

function badge(status) {
  return h('span', {class: `badge ${status}`}, status);
}

function unitLink(ns, ref) {
  return h('a', {href: route('ns', ns, 'specs', ref.work_spec_name, 'units', ref.work_unit_name)},
    `${ref.work_spec_name} / ${ref.work_unit_name}`);
}

function title(...parts) {
  document.title = [...parts, 'Coordinate Streams'].join(' · ');
}

// ---- Views. Each draws its frame at once and returns the function that fills in (and later refreshes) the data.

function namespacesView() {
  live.follow(null);
  title('Namespaces');
  const list = h('ul', {class: 'cards', 'data-testid': 'namespaces'});
  main.replaceChildren(h('h1', {}, 'Namespaces'), list);
  return async () => {
    const {namespaces} = await api.get(api.paths.namespaces());
    // Each namespace's summary, read by the instance that owns it; one that cannot be read shows dashes.
    const summaries = await Promise.all(namespaces.map(ns => api.get(api.paths.summary(ns)).catch(() => null)));
    fill(list, namespaces.length
      ? namespaces.map((ns, i) => namespaceEntry(ns, summaries[i]))
      : h('li', {class: 'hint'}, 'No namespace yet: define a work spec and it shows here.'));
  };
}

/** A namespace on the first page: its units by status and the age of its oldest waiting unit. */
function namespaceEntry(ns, summary) {
  const ages = (summary?.work_specs ?? []).map(s => s.oldest_available_age_seconds).filter(a => a != null);
  return h('li', {class: 'card', 'data-testid': 'namespace', 'data-namespace': ns},
    h('h3', {}, h('a', {href: route('ns', ns), 'data-testid': 'namespace-link'}, ns)),
    summary ? countsList(summary.counts ?? {}, null) : h('p', {'data-testid': 'namespace-counts'}, MISSING),
    h('dl', {class: 'facts'}, fact('Oldest waiting', h('span', {'data-testid': 'namespace-oldest-age'},
      summary ? age(ages.length ? Math.max(...ages) : null) : MISSING))));
}

/** Units by status, each linked to the units of that status when linkOf is given. */
function countsList(counts, linkOf) {
  return h('dl', {class: 'counts'}, STATUSES.map(status => h('div', {class: status},
    h('dt', {}, linkOf ? h('a', {href: linkOf(status)}, status) : status),
    h('dd', {'data-testid': `count-${status}`}, String(counts[status] ?? 0)))));
}

function namespaceView(ns) {
  live.follow(ns);
  title(ns);
  const cards = h('div', {class: 'cards', 'data-testid': 'spec-cards'});
  const dead = h('div', {});
  main.replaceChildren(
    crumbs(['Namespaces', '#/'], [ns]),
    h('h1', {}, ns),
    h('p', {}, h('a', {href: route('ns', ns, 'workers')}, 'Workers and their running attempts')),
    h('section', {'aria-labelledby': 'specs-title'}, h('h2', {id: 'specs-title'}, 'Work specs'), cards),
    h('div', {class: 'columns'},
      h('section', {'aria-labelledby': 'feed-title'}, h('h2', {id: 'feed-title'}, 'Live events'),
        h('ol', {class: 'feed', 'data-testid': 'live-feed'})),
      h('section', {'aria-labelledby': 'dead-title'}, h('h2', {id: 'dead-title'}, 'Recent dead letters'), dead)));
  renderFeed();
  deadLetters(dead, ns);
  return async () => {
    const [summary, specs, throughput] = await Promise.all([
      api.get(api.paths.summary(ns)),
      api.get(api.paths.specs(ns)).catch(() => null),
      api.getOptional(api.paths.throughput(ns)).catch(() => null),
    ]);
    const specByName = new Map((specs?.work_specs ?? []).map(s => [s.name, s]));
    const flowByName = new Map((throughput?.work_specs ?? []).map(s => [s.name, s]));
    fill(cards, summary.work_specs.length
      ? summary.work_specs.map(entry => specCard(ns, entry, specs && (specByName.get(entry.name) ?? null),
        throughput && (flowByName.get(entry.name) ?? null)))
      : h('p', {class: 'hint'}, 'No work spec in this namespace.'));
  };
}

function sum(values) {
  return (values ?? []).reduce((a, b) => a + b, 0);
}

function flowBlock(flow) {
  if (flow === null) return h('span', {'data-testid': 'throughput'}, MISSING);
  const finished = flow.finished ?? [];
  const failed = flow.failed ?? [];
  const label = `Per minute over the last 15 minutes, finished: ${finished.join(', ')}; failed: ${failed.join(', ')}`;
  return h('span', {class: 'flow', 'data-testid': 'throughput'},
    sparkline([{values: finished, cls: 'finished'}, {values: failed, cls: 'failed'}], label),
    h('span', {}, `${sum(finished)} finished, ${sum(failed)} failed, ${sum(flow.added)} added`));
}

function specCard(ns, entry, spec, flow) {
  const name = entry.name;
  const counts = entry.counts ?? {};
  const failed = counts.failed ?? 0;
  const paused = spec?.meta?.paused;
  const state = paused === undefined ? MISSING : paused ? 'paused' : 'running';
  const toggle = h('button', {type: 'button', 'data-testid': 'pause-toggle', 'data-key': `pause\n${name}`,
    disabled: paused === undefined}, paused ? 'Resume' : 'Pause');
  toggle.addEventListener('click', () => act(toggle, paused ? `Resuming ${name}` : `Pausing ${name}`, async () => {
    await api.command(ns, {command: 'set_work_spec_meta', work_spec_name: name, meta: {paused: !paused}}, askToken);
    return `${name} ${paused ? 'resumed' : 'paused'}.`;
  }));
  const reset = h('button', {type: 'button', 'data-testid': 'reset-failed', 'data-key': `reset\n${name}`,
    disabled: failed === 0}, `Reset failed (${failed})`);
  reset.addEventListener('click', () => act(reset, `Resetting the failed units of ${name}`, async () => {
    const result = await api.command(ns,
      {command: 'reset_work_units', work_spec_name: name, query: {statuses: ['failed']}}, askToken);
    return `${result.reset} failed units of ${name} reset.`;
  }));
  const unitsOf = status => route('ns', ns, 'specs', name) + (status ? `?status=${status}` : '');
  return h('article', {class: `card${paused ? ' paused' : ''}`, 'data-testid': 'spec-card', 'data-spec': name},
    h('header', {},
      h('h3', {}, h('a', {href: unitsOf(null), 'data-testid': 'spec-link'}, name)),
      h('span', {class: `badge ${state}`, 'data-testid': 'spec-state'}, state)),
    countsList(counts, unitsOf),
    h('dl', {class: 'facts'},
      fact('Oldest waiting', h('span', {'data-testid': 'oldest-age'}, age(entry.oldest_available_age_seconds))),
      fact('Last 15 min', flowBlock(flow))),
    h('div', {class: 'actions'}, toggle, reset));
}

function unitsView(ns, spec, params) {
  live.follow(ns);
  title(spec, ns);
  const status = params.get('status') ?? '';
  const limit = params.get('limit') ?? '25';
  const previous = params.get('previous');
  const here = route('ns', ns, 'specs', spec);
  const link = changes => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) value ? next.set(key, value) : next.delete(key);
    const query = next.toString();
    return query ? `${here}?${query}` : here;
  };
  const select = (label, testid, key, options) => {
    const control = h('select', {id: `filter-${key}`, 'data-testid': testid},
      options.map(([value, text]) => h('option', {value, selected: value === (params.get(key) ?? options[0][0])}, text)));
    control.addEventListener('change', () => {
      location.hash = link({[key]: control.value, previous: null});
    });
    return h('label', {for: `filter-${key}`}, label, ' ', control);
  };
  const rows = h('tbody', {});
  const pager = h('nav', {class: 'pager', 'aria-label': 'Pages'});
  const rates = h('div', {});
  const limits = h('div', {});
  const schedule = h('div', {});
  main.replaceChildren(
    crumbs(['Namespaces', '#/'], [ns, route('ns', ns)], [spec]),
    h('h1', {}, spec),
    rates,
    limits,
    schedule,
    h('form', {class: 'filters', onsubmit: e => e.preventDefault()},
      select('Status', 'status-filter', 'status', [['', 'any'], ...STATUSES.map(s => [s, s]),
        ['retrying', 'retrying (delayed by a retry)']]),
      select('Per page', 'page-size', 'limit', [['25', '25'], ['100', '100'], ['500', '500']])),
    h('table', {'data-testid': 'units-table'},
      h('caption', {}, previous ? `Units after “${previous}”` : 'Units in name order'),
      h('thead', {}, h('tr', {}, ['Name', 'Status', 'Priority', 'Attempt', 'Attempts', 'Next attempt']
        .map(c => h('th', {scope: 'col'}, c)))),
      rows),
    pager);
  return async () => {
    const query = new URLSearchParams({limit});
    if (status) query.set('status', status);
    if (previous !== null) query.set('previous', previous);
    const [page, rateFacts, specBody] = await Promise.all([api.get(api.paths.units(ns, spec, query)),
      specRates(ns, spec), api.getOptional(api.paths.spec(ns, spec)).catch(() => null)]);
    fill(rates, rateFacts);
    fill(limits, specLimits(specBody?.meta));
    fill(schedule, specSchedule(specBody?.meta));
    fill(rows, page.work_units.length
      ? page.work_units.map(u => h('tr', {'data-testid': 'unit-row'},
        h('td', {}, h('a', {href: route('ns', ns, 'specs', spec, 'units', u.name), 'data-testid': 'unit-link'}, u.name)),
        h('td', {}, badge(u.status)),
        h('td', {}, String(u.priority)),
        h('td', {}, u.active_attempt ?? MISSING),
        h('td', {}, String(u.attempt_count ?? MISSING)),
        h('td', {'data-testid': 'unit-next-attempt'}, u.next_attempt_at ? time(u.next_attempt_at) : MISSING)))
      : h('tr', {}, h('td', {colspan: 6, class: 'hint'}, 'No unit matches.')));
    fill(pager,
      previous !== null && h('a', {href: link({previous: null}), 'data-testid': 'first-page'}, 'First page'),
      page.next !== null && h('a', {href: link({previous: page.next}), 'data-testid': 'next-page'}, 'Next page'));
  };
}

function unitView(ns, spec, name) {
  live.follow(ns);
  title(name, spec, ns);
  const body = h('div', {'data-testid': 'unit-detail'});
  main.replaceChildren(
    crumbs(['Namespaces', '#/'], [ns, route('ns', ns)], [spec, route('ns', ns, 'specs', spec)], [name]),
    h('h1', {}, name), body);
  return async () => {
    const unit = await api.get(api.paths.unit(ns, spec, name));
    fill(body,
      h('dl', {class: 'facts'},
        fact('Status', h('span', {'data-testid': 'unit-status'}, badge(unit.status))),
        fact('Priority', String(unit.priority)),
        fact('Not before', time(unit.not_before)),
        fact('Active attempt', unit.active_attempt ?? 'none'),
        unitRetryFacts(unit),
        unit.parent && fact('Parent', unitLink(ns, unit.parent)),
        unit.predecessor && fact('Predecessor', unitLink(ns, unit.predecessor))),
      lastError(unit),
      h('h2', {}, 'Data'),
      h('p', {class: 'hint'}, 'The active attempt’s data when there is one (the result once finished, the error once '
        + 'failed), else the unit’s own.'),
      jsonBlock(unit.data, {'data-testid': 'unit-data'}),
      h('h2', {}, `Attempts (${unit.attempts.length})`),
      unit.attempts.length
        ? h('ol', {class: 'attempts', 'data-testid': 'attempts'}, unit.attempts.map(a => h('li', {'data-testid': 'attempt'},
          h('p', {}, h('strong', {}, `Attempt ${a.attempt_id}`), ' ', badge(a.status), a.active ? ' active' : '',
            ' · worker ', h('code', {}, a.worker)),
          h('p', {class: 'hint'}, `${time(a.start_time)} → `,
            a.end_time ? time(a.end_time) : `lease until ${time(a.expiration_time)}`),
          attemptOutcome(a),
          h('details', {}, h('summary', {}, 'Data'), jsonBlock(a.data)))))
        : h('p', {class: 'hint'}, 'No attempt yet.'));
  };
}

const ATTEMPTS_SHOWN = 10; // per worker: each is one more request

function workersView(ns, params) {
  live.follow(ns);
  title('Workers', ns);
  const previous = params.get('previous');
  const list = h('ul', {class: 'cards', 'data-testid': 'workers'});
  const pager = h('nav', {class: 'pager', 'aria-label': 'Pages'});
  const here = route('ns', ns, 'workers');
  main.replaceChildren(crumbs(['Namespaces', '#/'], [ns, route('ns', ns)], ['Workers']), h('h1', {}, 'Workers'),
    list, pager);
  return async () => {
    const query = new URLSearchParams({limit: 50});
    if (previous !== null) query.set('previous', previous);
    const page = await api.get(api.paths.workers(ns, query));
    const cards = await Promise.all(page.workers.map(async w => {
      const shown = w.active_attempts.slice(0, ATTEMPTS_SHOWN);
      const attempts = await Promise.all(shown.map(id => api.get(api.paths.attempt(ns, id)).catch(() => ({attempt_id: id}))));
      return h('li', {class: 'card', 'data-testid': 'worker'},
        h('header', {}, h('h3', {}, w.name),
          badge(w.expired ? 'expired' : w.active ? 'active' : 'inactive')),
        h('p', {class: 'hint'}, `Last seen ${time(w.last_update)}, mode ${w.mode ?? MISSING}`),
        h('p', {}, `Running attempts: ${w.active_attempts.length}`),
        attempts.length > 0 && h('ul', {class: 'plain'}, attempts.map(a => h('li', {},
          `${a.attempt_id}: `, a.work_spec_name ? unitLink(ns, a) : MISSING,
          a.expiration_time ? ` (lease until ${time(a.expiration_time)})` : ''))),
        w.active_attempts.length > ATTEMPTS_SHOWN && h('p', {class: 'hint'},
          `and ${w.active_attempts.length - ATTEMPTS_SHOWN} more`));
    }));
    fill(list, cards.length ? cards : h('li', {class: 'hint'}, 'No worker in this namespace.'));
    fill(pager,
      previous !== null && h('a', {href: here}, 'First page'),
      page.next !== null && h('a', {href: `${here}?previous=${encodeURIComponent(page.next)}`}, 'Next page'));
  };
}

/** Fills container with recent dead letters (of one namespace, or all) and a retry button for each. */
function deadLetters(container, ns) {
  const load = async () => {
    const params = new URLSearchParams({limit: ns === null ? 50 : 10});
    if (ns !== null) params.set('namespace', ns);
    let body;
    try {
      body = await api.getOptional(api.paths.deadLetters(params));
    } catch (e) {
      fill(container, h('p', {class: 'error'}, errorText(e)));
      return;
    }
    if (body === null) {
      fill(container, h('p', {'data-testid': 'dead-letters-missing'}, MISSING));
      return;
    }
    const reload = h('button', {type: 'button', class: 'quiet', 'data-testid': 'reload-dead-letters', onclick: load},
      'Reload');
    fill(container, reload, body.dead_letters.length
      ? h('ol', {class: 'dead', 'data-testid': 'dead-letters'}, body.dead_letters.map(d => deadLetter(d, load)))
      : h('p', {class: 'hint'}, 'None.'));
  };
  load();
}

function deadLetter(d, reload) {
  const retry = d.retryable && h('button', {type: 'button', 'data-testid': 'retry-dead-letter'}, 'Retry');
  if (retry) {
    retry.addEventListener('click', () => act(retry, `Retrying ${d.partition}/${d.offset}`, async () => {
      const answer = await api.post(api.paths.retryDeadLetter(d.partition, d.offset), {}, askToken);
      await reload();
      const to = answer.sent_to;
      return `Sent again to ${to.topic}, partition ${to.partition}, offset ${to.offset}.`;
    }));
  }
  return h('li', {class: 'card', 'data-testid': 'dead-letter'},
    h('p', {}, h('span', {class: 'badge failed', 'data-testid': 'error-code'}, d.error_code ?? MISSING), ' ',
      time(d.timestamp)),
    h('p', {'data-testid': 'dead-letter-source'}, 'Key ', h('code', {}, d.key ?? '(none)'),
      ` · from ${d.source_topic ?? MISSING}, partition ${d.source_partition ?? MISSING},`
      + ` offset ${d.source_offset ?? MISSING}`),
    d.error_message && h('p', {}, d.error_message),
    h('details', {}, h('summary', {}, 'Value'), h('pre', {class: 'json'}, d.value_preview ?? '')),
    retry);
}

function deadLettersView() {
  live.follow(null);
  title('Dead letters');
  const list = h('div', {});
  main.replaceChildren(crumbs(['Namespaces', '#/'], ['Dead letters']), h('h1', {}, 'Dead letters'),
    h('p', {class: 'hint'}, 'Records the app could not apply, newest first. Retry sends the original again.'), list);
  deadLetters(list, null);
  return async () => {}; // read on demand (Reload): each read scans the topic
}

// ---- Routing: #/ns/{ns}[/specs/{spec}[/units/{unit}] | /workers], #/dead-letters; names percent-encoded

function parseHash() {
  const hash = location.hash.startsWith('#/') ? location.hash.slice(2) : '';
  const cut = hash.indexOf('?');
  const path = cut < 0 ? hash : hash.slice(0, cut);
  const params = new URLSearchParams(cut < 0 ? '' : hash.slice(cut + 1));
  const segments = path === '' ? [] : path.split('/').map(s => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
  return {segments, params};
}

function pick({segments: s, params}) {
  if (s.length === 0) return namespacesView();
  if (s.length === 1 && s[0] === 'dead-letters') return deadLettersView();
  if (s[0] === 'ns' && s.length === 2) return namespaceView(s[1]);
  if (s[0] === 'ns' && s.length === 3 && s[2] === 'workers') return workersView(s[1], params);
  if (s[0] === 'ns' && s.length === 4 && s[2] === 'specs') return unitsView(s[1], s[3], params);
  if (s[0] === 'ns' && s.length === 6 && s[2] === 'specs' && s[4] === 'units') return unitView(s[1], s[3], s[5]);
  live.follow(null);
  main.replaceChildren(h('h1', {}, 'Not found'), h('p', {}, h('a', {href: '#/'}, 'Back to the namespaces')));
  return null;
}

async function show(first) {
  say('');
  current = pick(parseHash());
  if (!first) main.focus({preventScroll: true});
  await refresh();
}

window.addEventListener('hashchange', () => show(false));
showLive();
show(true);
