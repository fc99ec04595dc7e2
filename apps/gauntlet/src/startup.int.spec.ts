import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const GAUNTLET = join(ROOT, 'dist', 'apps', 'gauntlet', 'src', 'main.js');
const LAB = join(ROOT, 'dist', 'apps', 'lab', 'src', 'main.js');
const CLI = join(ROOT, 'bin', 'gauntlet.js');

/** runs a built entry point until it exits or prints `until` (then stops it); bounded */
function run(file: string, args: string[], env: Record<string, string>, until?: RegExp): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (d) => {
      out += d;
      if (until && until.test(out)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

describe('starting the service and the lab', () => {
  jest.setTimeout(60_000);
  let taken: Server;
  let port: number;
  const dataDir = mkdtempSync(join(tmpdir(), 'gauntlet-startup-'));
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    port = (taken.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((r) => taken.close(r));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers a taken port with one line naming PORT and --port, not a stack trace', async () => {
    const r = await run(GAUNTLET, ['all', '--port', String(port)], { HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    expect(r.code).toBe(1);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain(`port ${port} on 127.0.0.1 is already in use`);
    const suggested = Number(/PORT=(\d+) npm start, or npm start -- --port \1/.exec(r.err)?.[1]);
    // the port suggested is one that is free
    expect(suggested).not.toBe(port);
    await new Promise<void>((resolve, reject) => {
      const probe = createServer().once('error', reject).listen({ port: suggested, host: '127.0.0.1' }, () => probe.close(() => resolve()));
    });
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('says a taken port once: Nest\'s own report of the failed listen stays out of the log', async () => {
    const r = await run(GAUNTLET, ['all', '--port', String(port)], { HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
    expect(r.code).toBe(1);
    expect(r.out).not.toContain('EADDRINUSE');
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });

  it('answers `gauntlet serve` on a taken port with one line in the CLI\'s words', async () => {
    const r = await run(CLI, ['serve', '--port', String(port), '--data-dir', join(dataDir, 'cli')], {});
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    const lines = r.err.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^gauntlet: error: port ${port} on 127\\.0\\.0\\.1 is already in use \\(another gauntlet serve, perhaps\\): choose another with --port, e\\.g\\. gauntlet serve --port \\d+$`));
  });

  it('prints the address it actually bound', async () => {
    const r = await run(GAUNTLET, ['--port', '0'], { HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' }, /gauntlet api listening/);
    expect(r.out).toMatch(/gauntlet api listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(r.out).not.toMatch(/listening on http:\/\/127\.0\.0\.1:0\b/);
  });

  it('answers a taken lab port with one line naming --port and LAB_PORT', async () => {
    const r = await run(LAB, ['--port', String(port)], {});
    expect(r.code).toBe(1);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain(`port ${port} on 127.0.0.1 is already in use (a lab left running, perhaps): choose another with --port or LAB_PORT`);
  });

  it('prints the lab\'s address and the canaries to register', async () => {
    const r = await run(LAB, ['--port', '0'], {}, /canaries to register/);
    expect(r.out).toMatch(/^lab listening on http:\/\/127\.0\.0\.1:\d+ /);
    expect(r.out).toMatch(/canaries to register on the target: \S+-CANARY, \S+-CANARY/);
  });
});
