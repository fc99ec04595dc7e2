import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../apps/gauntlet/src/config/config';
import { createLogger } from '../../apps/gauntlet/src/platform/logger';
import { createRuntime, Runtime } from '../../apps/gauntlet/src/runtime';
import { Role, startRoles } from '../../apps/gauntlet/src/main';
import { eventually } from './receiver';

export interface RunningService {
  url: string;
  runtime: Runtime;
  dataDir: string;
  stop(): Promise<void>;
  /** stop, keep DATA_DIR, start again on the same data */
  restart(): Promise<RunningService>;
}

/**
 * The whole service in this process on a free port, embedded engines in a temp DATA_DIR.
 * One at a time per test file: passport holds a single 'jwt' strategy per module registry.
 */
export async function startService(env: Record<string, string> = {}, roles: Role[] = ['all'], dataDir = mkdtempSync(join(tmpdir(), 'gauntlet-e2e-'))): Promise<RunningService> {
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent', OUTBOUND_ALLOW_PRIVATE: 'true', ...env });
  const runtime = await createRuntime(config, createLogger(config.logLevel));
  // the scanner in this process: specs look inside it (npm start runs it in a child: scanner-process.e2e.spec.ts, scanner-crash.e2e.spec.ts)
  const { url } = await startRoles(runtime, roles, { scanners: 'here' });
  const service: RunningService = {
    url: url!.replace('[::1]', '127.0.0.1'),
    runtime,
    dataDir,
    async stop() {
      await runtime.close();
    },
    async restart() {
      await runtime.close();
      return startService(env, roles, dataDir);
    },
  };
  return service;
}

export function removeDir(dir: string) {
  rmSync(dir, { recursive: true, force: true });
}

/** a small typed client: every call returns status, headers and parsed body */
export function client(base: string, auth: { token?: string; apiKey?: string } = {}) {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const h: Record<string, string> = { ...headers };
    if (auth.token) h.authorization = `Bearer ${auth.token}`;
    if (auth.apiKey) h['x-api-key'] = auth.apiKey;
    if (body !== undefined) h['content-type'] ??= 'application/json';
    const res = await fetch(base + path, { method, headers: h, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await res.text();
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: res.status, headers: res.headers, body: json, text };
  };
  return {
    get: (p: string, h?: Record<string, string>) => call('GET', p, undefined, h),
    post: (p: string, b?: unknown, h?: Record<string, string>) => call('POST', p, b ?? {}, h),
    put: (p: string, b?: unknown) => call('PUT', p, b ?? {}),
    patch: (p: string, b?: unknown) => call('PATCH', p, b ?? {}),
    delete: (p: string) => call('DELETE', p),
    raw: call,
  };
}

/** registers and signs in a fresh account; returns its authenticated client */
export async function signUp(base: string, email = `user-${Math.random().toString(36).slice(2)}@example.com`, password = 'a-long-enough-password') {
  const anon = client(base);
  const reg = await anon.post('/api/auth/register', { email, password });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${reg.text}`);
  const login = await anon.post('/api/auth/login', { email, password });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  return { id: reg.body.id as string, email, token: login.body.access_token as string, api: client(base, { token: login.body.access_token }) };
}

/** Polls a scan's status until it has ended (any end); answers the last status view. */
export function scanEnded(api: ReturnType<typeof client>, id: string) {
  return eventually(async () => {
    const s = (await api.get(`/api/scans/${id}/status`)).body;
    return ['completed', 'completed_partial', 'failed', 'cancelled'].includes(s.status) ? s : undefined;
  }, 120_000, 100);
}

/** Runs a quick scan of the target, expects it to complete, and answers the scan's detail. */
export async function completedQuickScan(api: ReturnType<typeof client>, target_id: string) {
  const created = await api.post('/api/scans', { target_id, profile: 'quick' });
  expect(created.status).toBe(201);
  expect((await scanEnded(api, created.body.id)).status).toBe('completed');
  return (await api.get(`/api/scans/${created.body.id}`)).body;
}
