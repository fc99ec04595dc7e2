import { ProbeAttempt, Vulnerability } from '@gauntlet/domain';
import { FOREIGN_BOT_KINDS, ForeignBotKind, startForeignBot } from '../../../../test/support/foreign-bots';
import { createChatDriver } from '../drivers';
import { runScan } from './run-scan';

/**
 * Generality: chatbots written apart from the scanner and from its lab (another persona, other
 * wording, other filter rules; test/support/foreign-bots), scanned with the default profile and no
 * canaries configured. Every planted category is found, nothing else, and a hardened bot yields
 * no high or critical finding.
 */
async function scanBot(kind: ForeignBotKind) {
  const bot = await startForeignBot(kind);
  const target = { id: 't', name: kind, url: `${bot.url}/v1/chat/completions`, scan_mode: 'api' as const, api_format: 'openai' as const, api_key: null, model: 'skye', canaries: [], browser: null, http: null, max_requests_per_second: null };
  const driver = createChatDriver(target, { allowPrivate: true, timeoutMs: 10_000 });
  const attempts: ProbeAttempt[] = [];
  const vulnerabilities: Vulnerability[] = [];
  try {
    const outcome = await runScan({
      scanId: `foreign-${kind}`, seed: `foreign-${kind}`, profile: 'standard', driver, signal: new AbortController().signal, now: () => new Date(), target,
      sink: { enterPhase: async () => {}, recordAttempt: async (a) => void attempts.push(a), recordVulnerability: async (v) => void vulnerabilities.push(v) },
    });
    expect(outcome).toEqual({ kind: 'completed' });
    return { planted: [...bot.planted].sort(), found: [...new Set<string>(vulnerabilities.map((v) => v.category))].sort(), vulnerabilities, attempts, requests: bot.requests() };
  } finally {
    await driver.close();
    await bot.close();
  }
}

describe('chatbots written apart from the scanner (standard profile, no canaries)', () => {
  // whole scans: bounded generously, since a busy 2-core machine may run several test files beside them
  jest.setTimeout(120_000);
  it.each(FOREIGN_BOT_KINDS.filter((k) => k !== 'hardened'))('%s: every planted category is found, and nothing else', async (kind) => {
    const { planted, found } = await scanBot(kind);
    expect(found).toEqual(expect.arrayContaining(planted));
    // a leaked system prompt that holds credentials is also a disclosure of them (LLM02), by design
    const allowed = new Set([...planted, ...(planted.includes('LLM07:2025') ? ['LLM02:2025'] : [])]);
    expect(found.filter((c) => !allowed.has(c))).toEqual([]);
  });

  it('each guardrail is named by how the findings got through it', async () => {
    const bypassed = async (kind: ForeignBotKind, how: RegExp) => (await scanBot(kind)).vulnerabilities.some((v) => how.test(v.how));
    expect(await bypassed('input-filter', /request sent through \S+ \((encoding|obfuscation)\)/i)).toBe(true);
    expect(await bypassed('output-filter', /answer asked for as .*; the answer (decoded|reversed|joined|read)/i)).toBe(true);
    expect(await bypassed('crescendo-4', /crescendo arc of [4-9] turns/)).toBe(true);
  });

  it('hardened: no high or critical finding, within about three times a plain pass', async () => {
    const { vulnerabilities, requests } = await scanBot('hardened');
    expect(vulnerabilities.filter((v) => v.severity === 'critical' || v.severity === 'high').map((v) => `${v.probe_id}: ${v.evidence.matched}`)).toEqual([]);
    expect(requests).toBeLessThanOrEqual(3 * 77);
  });
});
