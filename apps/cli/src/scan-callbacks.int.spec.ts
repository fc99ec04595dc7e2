import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FetchingAgent, startFetchingAgent } from '../../../test/support/fetching-agent';

const BIN = join(__dirname, '..', '..', '..', 'bin', 'gauntlet.js');

function gauntlet(args: string[], cwd: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 110_000);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

/** `gauntlet scan` listens for callbacks itself: a loopback listener on a free port, planted by its probes. */
describe('gauntlet scan: out-of-band proof without a server', () => {
  jest.setTimeout(150_000);
  let agent: FetchingAgent;
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-cli-oob-'));
  beforeAll(async () => {
    agent = await startFetchingAgent({ fetches: true, follows: true, customer: 'Dana Whitfield' });
  });
  afterAll(async () => {
    await agent?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('catches an agent app that fetched its planted page and obeyed it, with the request as proof', async () => {
    const r = await gauntlet(['scan', `${agent.url}/v1`, '--model', 'agent', '--probes', 'oob-001', '--profile', 'quick', '--sensitive', 'customer name=Dana Whitfield', '--data-dir', join(dir, 'data'), '--report', 'out/oob.json'], dir);
    expect(r.out).toMatch(/listening for callbacks at http:\/\/127\.0\.0\.1:\d+\/oob/);
    const report = JSON.parse(readFileSync(join(dir, 'out/oob.json'), 'utf8'));
    const proven = report.vulnerabilities.filter((v: any) => v.evidence?.proof?.matched?.kind === 'out_of_band');
    expect(proven.map((v: any) => v.category).sort()).toEqual(['LLM01:2025', 'LLM02:2025', 'LLM06:2025']);
    expect(agent.fetched.some((u) => /^http:\/\/127\.0\.0\.1:\d+\/oob\//.test(u))).toBe(true);
  });

  it('refuses a callback address it cannot plant', async () => {
    const r = await gauntlet(['scan', `${agent.url}/v1`, '--callback-url', 'ftp://x', '--data-dir', join(dir, 'data')], dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--callback-url must be an http or https URL');
  });
});
