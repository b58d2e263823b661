// Builds DOM nodes. Every text goes in as a text node, never as HTML: names are arbitrary UTF-8.

const SVG_NS = 'http://www.w3.org/2000/svg';

function build(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** An HTML element: h('a', {href: '#/'}, 'text', otherNode). */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element. */
export function svg(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** A term and its value, in a {@code dl class="facts"}. */
export function fact(label, ...value) {
  return h('div', {}, h('dt', {}, label), h('dd', {}, value));
}

/** A dash for a value this server does not give (a route or field added by a later version). */
export const MISSING = '—';

/** "42 s", "5 min", "3 h 12 min", "2 d 4 h". */
export function age(seconds) {
  if (seconds === undefined) return MISSING;
  if (seconds === null) return 'none waiting';
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const hours = Math.floor(m / 60);
  if (hours < 24) return m % 60 ? `${hours} h ${m % 60} min` : `${hours} h`;
  const d = Math.floor(hours / 24);
  return hours % 24 ? `${d} d ${hours % 24} h` : `${d} d`;
}

/** An ISO time in the reader's locale, or a dash. */
export function time(iso) {
  if (!iso) return MISSING;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** JSON for people: indented, in a block that wraps. */
export function jsonBlock(value, attrs) {
  return h('pre', {class: 'json', ...attrs}, JSON.stringify(value ?? null, null, 2));
}

/** A fragment id of the dashboard: each name percent-encoded, so any name round-trips. */
export function route(...segments) {
  return '#/' + segments.map(encodeURIComponent).join('/');
}

/** A small line chart of one or more series of equal length, with its numbers in its label. */
export function sparkline(series, label) {
  const width = 150;
  const height = 32;
  const max = Math.max(1, ...series.flatMap(s => s.values));
  const lines = series.map(({values, cls}) => {
    const step = values.length > 1 ? width / (values.length - 1) : width;
    const points = values.map((v, i) => `${(i * step).toFixed(1)},${(height - 2 - (v / max) * (height - 4)).toFixed(1)}`);
    return svg('polyline', {points: points.join(' '), class: cls, fill: 'none'});
  });
  return svg('svg', {class: 'spark', viewBox: `0 0 ${width} ${height}`, width, height, role: 'img',
    'aria-label': label, preserveAspectRatio: 'none'}, svg('title', {}, label), lines);
}
