// The HTTP API of the instance that serves this page. Reads are open; a change that meets 401 asks for the
// token (again at once if it is refused), keeps it for this tab (sessionStorage) and sends it as "Authorization:
// Bearer".

const TOKEN_KEY = 'coordinate.token';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
  }
}

const enc = encodeURIComponent;

export const paths = {
  namespaces: () => '/api/namespaces',
  summary: ns => `/api/namespaces/${enc(ns)}/summary`,
  specs: ns => `/api/namespaces/${enc(ns)}/work-specs`,
  spec: (ns, spec) => `/api/namespaces/${enc(ns)}/work-specs/${enc(spec)}`,
  throughput: ns => `/api/namespaces/${enc(ns)}/throughput`,
  units: (ns, spec, params) => `/api/namespaces/${enc(ns)}/work-specs/${enc(spec)}/work-units?${params}`,
  unit: (ns, spec, unit) => `/api/namespaces/${enc(ns)}/work-specs/${enc(spec)}/work-units/${enc(unit)}`,
  counters: (ns, spec) => `/api/namespaces/${enc(ns)}/work-specs/${enc(spec)}/counters`,
  workers: (ns, params) => `/api/namespaces/${enc(ns)}/workers?${params}`,
  attempt: (ns, id) => `/api/namespaces/${enc(ns)}/attempts/${enc(id)}`,
  commands: ns => `/api/namespaces/${enc(ns)}/commands`,
  events: ns => `/api/namespaces/${enc(ns)}/events`,
  deadLetters: params => `/api/dead-letters?${params}`,
  retryDeadLetter: (partition, offset) => `/api/dead-letters/${enc(partition)}/${enc(offset)}/retry`,
};

async function answer(response) {
  const text = await response.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    throw new ApiError(response.status, 'not_json', `HTTP ${response.status}: the answer is not JSON`);
  }
  if (!response.ok) {
    const error = body?.error ?? {};
    throw new ApiError(response.status, error.code, error.message);
  }
  return body;
}

/** GET a JSON answer; throws ApiError on an error status. */
export async function get(path) {
  return answer(await fetch(path, {headers: {Accept: 'application/json'}}));
}

/** GET a route that older or newer servers may lack: null when it answers 404. */
export async function getOptional(path) {
  try {
    return await get(path);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

/**
 * POST a JSON body. On 401, asks askToken(message) for the token (a promise of a string, or null when the
 * reader cancels) and tries again with it, asking again at once while the token given is refused.
 */
export async function post(path, body, askToken) {
  for (;;) {
    const token = sessionStorage.getItem(TOKEN_KEY);
    const headers = {'Content-Type': 'application/json', Accept: 'application/json'};
    if (token) headers.Authorization = `Bearer ${token}`;
    const response = await fetch(path, {method: 'POST', headers, body: JSON.stringify(body)});
    if (response.status === 401) {
      sessionStorage.removeItem(TOKEN_KEY);
      const given = await askToken(token ? 'The token was refused; enter it again.' : null);
      if (given) {
        sessionStorage.setItem(TOKEN_KEY, given);
        continue;
      }
    }
    return answer(response);
  }
}

/** Sends a command to a namespace through the command gateway; returns its result, throws on a rejection. */
export async function command(ns, body, askToken) {
  const reply = await post(paths.commands(ns), body, askToken);
  return reply.result;
}
