import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSocket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { FetchingAgent, startFetchingAgent } from '../../../test/support/fetching-agent';
import { startMailingAgent } from '../../../test/support/mailing-agent';
import { runGauntlet as gauntlet } from '../../../test/support/cli-process';

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

  it('plants an e-mail domain under --callback-domain and hears the lookup of it on --callback-dns', async () => {
    // a UDP port free a moment ago, for the listener to bind and the agent's resolver to ask
    const probe = createSocket('udp4');
    await new Promise<void>((resolve) => probe.bind(0, '127.0.0.1', () => resolve()));
    const port = probe.address().port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const resolver = new Resolver({ timeout: 2_000, tries: 1 });
    resolver.setServers([`127.0.0.1:${port}`]);
    const mailer = await startMailingAgent(resolver);
    try {
      const r = await gauntlet(['scan', `${mailer.url}/v1`, '--model', 'mailer', '--probes', 'oob-005', '--callback-domain', 'oob.gauntlet.test', '--callback-dns', String(port), '--data-dir', join(dir, 'data'), '--report', 'out/mail.json'], dir);
      expect(r.out).toContain(`planting e-mail domains under oob.gauntlet.test (DNS answered on udp 127.0.0.1:${port})`);
      const report = JSON.parse(readFileSync(join(dir, 'out/mail.json'), 'utf8'));
      const [proven] = report.vulnerabilities.filter((v: any) => v.evidence?.proof?.matched?.kind === 'out_of_band');
      expect(proven).toMatchObject({ category: 'LLM06:2025', severity: 'high', evidence: { proof: { matched: { method: 'DNS', host: expect.stringMatching(/\.oob\.gauntlet\.test$/) } } } });
      expect(mailer.looked.every((d) => d.endsWith('.oob.gauntlet.test'))).toBe(true);
    } finally {
      await mailer.close();
    }
  });

  it('refuses a callback address it cannot plant', async () => {
    const r = await gauntlet(['scan', `${agent.url}/v1`, '--callback-url', 'ftp://x', '--data-dir', join(dir, 'data')], dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--callback-url must be an http or https URL');
  });
});
