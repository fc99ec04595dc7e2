// The one way the dashboard talks to the service: the client typed by the service's own OpenAPI
// document (schema.d.ts, generated), same origin, bearer token from sessionStorage, and
// problem+json errors turned into ApiError so pages can show `detail` and field errors.
import createClient from 'openapi-fetch';
import type { components, paths } from './schema';

export type Schemas = components['schemas'];

const TOKEN_KEY = 'gauntlet.token';

export const session = {
  get token(): string | null {
    return sessionStorage.getItem(TOKEN_KEY);
  },
  set(token: string): void {
    sessionStorage.setItem(TOKEN_KEY, token);
  },
  clear(): void {
    sessionStorage.removeItem(TOKEN_KEY);
  },
};

type Problem = Partial<Schemas['Problem']> & { errors?: { field?: string; message: string }[] };

export class ApiError extends Error {
  readonly problem: Problem;
  readonly errors: { field?: string; message: string }[];

  constructor(
    readonly status: number,
    problem: Problem | null,
    /** on a 429: how long the service asks us to wait */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(problem?.detail || problem?.title || `The service answered ${status}.`);
    this.problem = problem ?? {};
    this.errors = Array.isArray(problem?.errors) ? problem.errors : [];
  }
}

let onUnauthorized = (): void => undefined;
/** called when a signed-in request answers 401 (the token expired): the app signs out */
export function whenUnauthorized(fn: () => void): void {
  onUnauthorized = fn;
}

export const client = createClient<paths>({
  baseUrl: location.origin,
  credentials: 'same-origin',
  headers: { accept: 'application/json, application/problem+json' },
});
client.use({
  onRequest({ request }) {
    if (session.token) request.headers.set('authorization', `Bearer ${session.token}`);
    return request;
  },
});

type Answer<D> = { data?: D; error?: unknown; response: Response };

/**
 * The data of a call (`await answer(client.GET('/api/scans/{id}', { params: { path: { id } } }))`),
 * or an ApiError carrying the problem the service answered (status 0 when it was not reached).
 */
export async function answer<D>(call: Promise<Answer<D>>): Promise<D> {
  let result: Answer<D>;
  try {
    result = await call;
  } catch {
    throw new ApiError(0, { title: 'Network error', detail: 'The service could not be reached. Check your connection and try again.' });
  }
  const { response } = result;
  if (response.status === 401 && session.token) onUnauthorized();
  if (!response.ok) {
    const problem = result.error && typeof result.error === 'object' ? (result.error as Problem) : null;
    const wait = response.status === 429 ? Number(response.headers.get('retry-after')) || null : null;
    if (wait && problem && !problem.errors) problem.detail = `${problem.detail ?? 'Too many requests.'} Try again in ${wait} s.`;
    throw new ApiError(response.status, problem, wait);
  }
  return result.data as D;
}

/** a page of a cursor-paginated list: its rows and the cursor of the next page (null after the last) */
export interface Page<T> {
  items: T[];
  next: string | null | undefined;
}

/**
 * A cursor-paginated list read a page at a time: each `more()` appends the next page to `items`
 * and keeps its `cursor` (null once the last page is read).
 */
export function pager<T>(read: (cursor: string | undefined) => Promise<Page<T>>) {
  const list = {
    items: [] as T[],
    cursor: null as string | null,
    async more() {
      const page = await read(list.cursor ?? undefined);
      list.items.push(...page.items);
      list.cursor = page.next ?? null;
      return list;
    },
  };
  return list;
}

/** every page of a cursor-paginated list (read with `limit` 100), bounded so a huge account cannot hang the page */
export async function all<T>(read: (cursor: string | undefined, limit: number) => Promise<Page<T>>, maxPages = 20): Promise<T[]> {
  const list = pager((cursor) => read(cursor, 100));
  for (let i = 0; i < maxPages; i++) if (!(await list.more()).cursor) break;
  return list.items;
}
