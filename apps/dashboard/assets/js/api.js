// The one way the dashboard talks to the service: same origin, bearer token from sessionStorage,
// problem+json errors turned into ApiError so pages can show `detail` and field errors.

const TOKEN_KEY = 'gauntlet.token';

export const session = {
  get token() {
    return sessionStorage.getItem(TOKEN_KEY);
  },
  set(token) {
    sessionStorage.setItem(TOKEN_KEY, token);
  },
  clear() {
    sessionStorage.removeItem(TOKEN_KEY);
  },
};

export class ApiError extends Error {
  constructor(status, problem, retryAfterSeconds = null) {
    super(problem?.detail || problem?.title || `The service answered ${status}.`);
    this.status = status;
    this.problem = problem ?? {};
    this.errors = Array.isArray(problem?.errors) ? problem.errors : [];
    /** on a 429: how long the service asks us to wait */
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

let onUnauthorized = () => {};
/** called when a signed-in request answers 401 (the token expired): the app signs out */
export function whenUnauthorized(fn) {
  onUnauthorized = fn;
}

export async function request(method, path, body, { raw = false } = {}) {
  const headers = { accept: 'application/json, application/problem+json' };
  if (session.token) headers.authorization = `Bearer ${session.token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, { title: 'Network error', detail: 'The service could not be reached. Check your connection and try again.' });
  }
  if (res.status === 401 && session.token) onUnauthorized();
  if (!res.ok) {
    let problem = null;
    try {
      problem = await res.json();
    } catch {
      problem = null;
    }
    const wait = res.status === 429 ? Number(res.headers.get('retry-after')) || null : null;
    if (wait && problem && !problem.errors) problem.detail = `${problem.detail ?? 'Too many requests.'} Try again in ${wait} s.`;
    throw new ApiError(res.status, problem, wait);
  }
  if (raw) return res;
  if (res.status === 204) return null;
  const text = await res.text();
  return text ? JSON.parse(text) : null;
}

export const api = {
  get: (p) => request('GET', p),
  post: (p, b = {}) => request('POST', p, b),
  patch: (p, b) => request('PATCH', p, b),
  del: (p) => request('DELETE', p),
  raw: (method, p) => request(method, p, undefined, { raw: true }),
};

/** query string from an object, leaving out empty values */
export function qs(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/**
 * A cursor-paginated list read a page at a time: each `more()` appends the next page to `items`
 * and keeps its `cursor` (null once the last page is read).
 */
export function pager(path, key, params = {}) {
  const list = {
    items: [],
    cursor: null,
    async more() {
      const page = await api.get(path + qs({ ...params, cursor: list.cursor }));
      list.items.push(...(page?.[key] ?? []));
      list.cursor = page?.next_cursor ?? null;
      return list;
    },
  };
  return list;
}

/** every page of a cursor-paginated list, bounded so a huge account cannot hang the page */
export async function all(path, key, params = {}, maxPages = 20) {
  const list = pager(path, key, { ...params, limit: 100 });
  for (let i = 0; i < maxPages; i++) if (!(await list.more()).cursor) break;
  return list.items;
}

/** "not built yet / not available" answers that a page explains instead of failing on */
export const isMissing = (err) => err instanceof ApiError && (err.status === 404 || err.status === 405 || err.status === 501);
