import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LAB_MODELS, LabModel, startLab } from './lab';

/** the built service's entry point, as `npm start` runs it: the demo talks to Gauntlet as any user does, over its CLI and HTTP */
const GAUNTLET_MAIN = join(__dirname, '..', '..', 'gauntlet', 'src', 'main.js');

/** Gauntlet in its own process (every role, embedded engines), resolved once it answers /healthz (bounded) */
async function startGauntlet(env: Record<string, string>, base: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [GAUNTLET_MAIN, 'all'], { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`gauntlet exited with ${child.exitCode}`);
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`gauntlet did not answer at ${base} within 30 s`);
}

/**
 * The port to listen on: `preferred` when it is free, else one the system picks. The demo runs
 * its own Gauntlet and lab beside whatever already listens (an `npm start` left running, the
 * lab of the README's walkthrough) instead of dying with EADDRINUSE.
 */
function freePort(preferred: number, host: string): Promise<number> {
  const attempt = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(port, host, () => {
        const { port: got } = server.address() as { port: number };
        server.close(() => resolve(got));
      });
    });
  return attempt(preferred).catch(() => attempt(0));
}

/**
 * `npm run demo`: Gauntlet (embedded, DATA_DIR ./data-demo) and the vulnerable lab, a standard
 * scan of the lab through the public API, then the grade and where the reports are. Both keep
 * running so the links work; Ctrl-C stops them. Ports already taken are left alone: the demo
 * takes free ones and says which. `npm run demo -- --model smollm2` (or LAB_MODEL=smollm2) puts the
 * real model behind the lab (weights from infra/smollm2.sh) and runs a quick scan: the model
 * answers one request at a time, a few seconds each.
 */
async function main() {
  const i = process.argv.indexOf('--model');
  const model = (i >= 0 ? process.argv[i + 1] : (process.env.LAB_MODEL ?? 'scripted')) as LabModel;
  if (!LAB_MODELS.includes(model)) throw new Error(`--model must be one of ${LAB_MODELS.join(', ')}, got "${model}"`);
  const labPort = await freePort(Number(process.env.LAB_PORT ?? 8088), '127.0.0.1');
  const lab = await startLab({ port: labPort, mode: 'vulnerable', model, persona: process.env.LAB_PERSONA });
  const host = process.env.HOST ?? '127.0.0.1';
  const port = await freePort(Number(process.env.PORT ?? 3000), host);
  // a second demo beside a first keeps its own data: two processes on one embedded store would share its bus
  const dataDir = process.env.DATA_DIR ?? (port === Number(process.env.PORT ?? 3000) ? './data-demo' : mkdtempSync(join(tmpdir(), 'gauntlet-demo-')));
  // this demo's own administrator, so the demo account can be moved to the pro plan (every report format)
  const admin = { email: 'demo-admin@gauntlet.local', password: 'demo-admin-password-123' };
  // links point at this demo's port, whatever the environment says
  const base = `http://localhost:${port}`;
  const gauntlet = await startGauntlet(
    {
      PORT: String(port), HOST: host, DATA_DIR: dataDir, OUTBOUND_ALLOW_PRIVATE: 'true', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      SCAN_QUOTA_FREE: 'unlimited', ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password, PUBLIC_BASE_URL: base,
    },
    `http://${host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
  );
  // stopping the demo stops its Gauntlet too, also while the scan runs (a real model's takes minutes)
  const stop = async () => {
    if (gauntlet.exitCode === null && gauntlet.signalCode === null) {
      const exited = new Promise((r) => gauntlet.once('exit', r));
      gauntlet.kill('SIGTERM');
      await exited;
    }
    await lab.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  const call = async (path: string, body?: unknown, token?: string, method = body === undefined ? 'GET' : 'POST') => {
    const res = await fetch(base + path, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json() as Promise<any>;
  };

  const email = 'demo@gauntlet.local';
  const password = 'demo-password-123';
  await call('/api/auth/register', { email, password }); // 409 on a second run: fine
  const { access_token: token } = await call('/api/auth/login', { email, password });
  const { access_token: adminToken } = await call('/api/auth/login', admin);
  const me = await call('/api/account', undefined, token).catch(() => null);
  const accountId: string | undefined = me?.id;
  const pro = accountId ? await call(`/api/admin/accounts/${accountId}/plan`, { plan: 'pro' }, adminToken, 'PUT').then((r) => r?.plan === 'pro').catch(() => false) : false;
  const real = lab.model !== 'scripted';
  const target = await call(
    '/api/targets',
    { name: real ? `${lab.persona} (lab, ${lab.model})` : 'Penny, the lab support bot', url: `${lab.url}/v1`, scan_mode: 'api', api_format: 'openai', model: real ? 'smollm2-135m-lab' : 'penny-lab', canaries: [lab.canaries.system, lab.canaries.data] },
    token,
  );
  const scan = await call('/api/scans', { target_id: target.id, profile: real ? 'quick' : 'standard' }, token);
  if (labPort !== Number(process.env.LAB_PORT ?? 8088)) console.log(`(port ${process.env.LAB_PORT ?? 8088} is taken: this demo's lab uses ${labPort})`);
  if (port !== Number(process.env.PORT ?? 3000)) console.log(`(port ${process.env.PORT ?? 3000} is taken, by an npm start perhaps: this demo's Gauntlet uses ${port}, data in ${dataDir})`);
  console.log(`lab:      ${lab.url}  (chat page at /, OpenAI-compatible API at /v1${real ? `; ${lab.model} as ${lab.persona}, holding ${lab.secrets.length} secrets` : ''})`);
  console.log(`gauntlet: ${base}  (dashboard at /app, sign in as ${email} / ${password})`);
  console.log(`scanning ${target.name} (scan ${scan.id})`);

  let status: any;
  // a real model answers one request at a time: its quick scan takes minutes
  for (let i = 0; i < (real ? 7_200 : 600); i++) {
    status = await call(`/api/scans/${scan.id}/status`, undefined, token);
    process.stdout.write(`\r  ${status.phase.padEnd(8)} ${String(status.progress).padStart(3)}%  findings ${status.findings_so_far}   `);
    if (!['pending', 'running'].includes(status.status)) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  console.log('');
  if (status.status !== 'completed' && status.status !== 'completed_partial') {
    console.log(`the scan ended ${status.status}${status.reason ? `: ${status.reason}` : ''}`);
  } else {
    const score = await call(`/api/scans/${scan.id}/score`, undefined, token);
    console.log(`grade ${score.grade} (${score.overall_score}/100): ${score.critical_count} critical, ${score.high_count} high, ${score.medium_count} medium, ${score.low_count} low`);
    console.log(`scan:      ${base}/app/scans/${scan.id}`);
    console.log(`report:    ${base}/api/scans/${scan.id}/report?format=json`);
    if (pro) {
      console.log(`           ...&format=pdf, csv, markdown or html: the demo account is on the pro plan (this demo's admin ${admin.email} moved it)`);
    } else {
      console.log('           pdf, csv, markdown and html need the pro plan: start Gauntlet with ADMIN_EMAIL and ADMIN_PASSWORD, sign in as that admin,');
      console.log('           then PUT /api/admin/accounts/{account id}/plan {"plan":"pro"} (the first scan in the README shows the commands)');
    }
    console.log(`evidence:  ${base}/api/scans/${scan.id}/compliance-evidence`);
    if (real) {
      const exposed = [...lab.exposures.exposedCategories()].map(([c, n]) => `${c} in ${n} answers`).join(', ');
      console.log(`the lab's own oracle: ${lab.exposures.answers().length} answers, secrets exposed ${exposed || 'in none'}`);
    }
    console.log(`(reports and the dashboard need a bearer token: sign in at ${base}/app, or POST /api/auth/login)`);
  }
  console.log('Ctrl-C to stop.');
}

main().catch((err) => {
  console.error(`demo failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
