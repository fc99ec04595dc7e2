import { CliError, CliIo, CLI_VERSION } from '../io';

/** A Gauntlet service the CLI talks to: its address and an API key (GAUNTLET_URL, GAUNTLET_API_KEY). */
export interface Service {
  base: string;
  apiKey: string;
}

export interface Answer {
  status: number;
  body: any;
}

/** The service from options or the environment, or the message saying what is missing. */
export function serviceFrom(options: { url?: string; apiKey?: string }, env: CliIo['env']): Service {
  const base = (options.url ?? env.GAUNTLET_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
  try {
    const u = new URL(base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw new CliError(`--url is not an http(s) address: ${base}`);
  }
  const apiKey = options.apiKey ?? env.GAUNTLET_API_KEY;
  if (!apiKey) throw new CliError('an API key is required: set GAUNTLET_API_KEY or pass --api-key');
  return { base, apiKey };
}

/** problem+json (or anything else) as one line */
export function describe(answer: Answer): string {
  const b = answer.body;
  if (b && typeof b === 'object' && (b.title || b.detail)) {
    const fields = Array.isArray(b.errors) ? b.errors.map((e: { field?: string; message?: string }) => `${e.field ?? ''}: ${e.message ?? ''}`).join('; ') : '';
    return `HTTP ${answer.status}: ${[b.title, b.detail, fields].filter(Boolean).join(': ')}`;
  }
  return `HTTP ${answer.status}`;
}

/** One call to the service, bounded by `deadline` (and 30 s at most); network failures become one line. */
export async function request(io: CliIo, service: Service, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, deadline?: number): Promise<Answer> {
  const timeout = Math.max(1, Math.min(30_000, (deadline ?? Infinity) - io.now()));
  let res: Response;
  try {
    res = await io.fetch(service.base + path, {
      method,
      headers: { 'X-API-Key': service.apiKey, Accept: 'application/json', 'User-Agent': `gauntlet-cli/${CLI_VERSION}`, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'error',
      signal: AbortSignal.timeout(timeout),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new CliError(`cannot reach ${service.base}: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
  }
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: keep the text for the message */
  }
  return { status: res.status, body: parsed };
}

/** A call whose answer must be 2xx: anything else is the service's problem as one line. */
export async function expectOk(io: CliIo, service: Service, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<any> {
  const answer = await request(io, service, method, path, body);
  if (answer.status === 401 || answer.status === 403) throw new CliError(`the service refused the API key (${describe(answer)})`);
  if (answer.status < 200 || answer.status >= 300) throw new CliError(`${method} ${path} failed (${describe(answer)})`);
  return answer.body;
}
