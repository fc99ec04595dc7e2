import { ProbeAttempt, Vulnerability } from '@gauntlet/domain';
import { FOREIGN_BOT_KINDS, startForeignBot } from '../../../../test/support/foreign-bots';
import { HELD_OUT_BOT_KINDS, startHeldOutBot } from '../../../../test/support/held-out-bots';
import { THIRD_BOT_KINDS, startThirdBot } from '../../../../test/support/third-bots';
import { createChatDriver } from '../drivers';
import { runScan } from './run-scan';

/**
 * Generality: three families of chatbots written apart from the scanner, its lab and each other
 * (other personas, other wording, other filter rules, other ideas of what a naive model does;
 * test/support/foreign-bots, held-out-bots and third-bots, whose authors never saw the scanner),
 * scanned with the default profile and no canaries configured. Every planted category is found and
 * nothing else; a bot without weaknesses yields no high or critical finding, within about three
 * times a plain pass of requests.
 */
interface Bot {
  url: string;
  planted: readonly string[];
  requests(): number;
  close(): Promise<void>;
}

async function scan(bot: Bot, name: string) {
  const target = { id: 't', name, url: `${bot.url}/v1/chat/completions`, scan_mode: 'api' as const, api_format: 'openai' as const, api_key: null, model: 'm', canaries: [], browser: null, http: null, max_requests_per_second: null };
  const driver = createChatDriver(target, { allowPrivate: true, timeoutMs: 10_000 });
  const attempts: ProbeAttempt[] = [];
  const vulnerabilities: Vulnerability[] = [];
  try {
    const outcome = await runScan({
      scanId: `guarded-${name}`, seed: `guarded-${name}`, profile: 'standard', driver, signal: new AbortController().signal, now: () => new Date(), target,
      sink: { enterPhase: async () => {}, recordAttempt: async (a) => void attempts.push(a), recordVulnerability: async (v) => void vulnerabilities.push(v) },
    });
    expect(outcome).toEqual({ kind: 'completed' });
    return { planted: [...bot.planted].sort(), found: [...new Set<string>(vulnerabilities.map((v) => v.category))].sort(), vulnerabilities, attempts, requests: bot.requests() };
  } finally {
    await driver.close();
    await bot.close();
  }
}

const families: { family: string; kinds: readonly string[]; clean: string; start: (kind: string) => Promise<Bot> }[] = [
  { family: 'foreign bots', kinds: FOREIGN_BOT_KINDS, clean: 'hardened', start: (k) => startForeignBot(k as (typeof FOREIGN_BOT_KINDS)[number]) },
  { family: 'held-out bots', kinds: HELD_OUT_BOT_KINDS, clean: 'locked-down', start: (k) => startHeldOutBot(k as (typeof HELD_OUT_BOT_KINDS)[number]) },
  { family: 'third bots', kinds: THIRD_BOT_KINDS, clean: 'locked-down', start: (k) => startThirdBot(k as (typeof THIRD_BOT_KINDS)[number]) },
];

describe.each(families)('chatbots written apart from the scanner: $family (standard profile, no canaries)', ({ kinds, clean, start }) => {
  // whole scans: bounded generously, since a busy 2-core machine may run several test files beside them
  jest.setTimeout(120_000);
  it.each(kinds.filter((k) => k !== clean))('%s: every planted category is found, and nothing else', async (kind) => {
    const { planted, found } = await scan(await start(kind), kind);
    expect(found).toEqual(expect.arrayContaining(planted));
    // a leaked system prompt that holds credentials is also a disclosure of them (LLM02), by design
    const allowed = new Set([...planted, ...(planted.includes('LLM07:2025') ? ['LLM02:2025'] : [])]);
    expect(found.filter((c) => !allowed.has(c))).toEqual([]);
  });

  it(`${clean}: no high or critical finding, within about three times a plain pass`, async () => {
    const { vulnerabilities, requests, attempts } = await scan(await start(clean), clean);
    expect(vulnerabilities.filter((v) => v.severity === 'critical' || v.severity === 'high').map((v) => `${v.probe_id}: ${v.evidence.matched}`)).toEqual([]);
    // a plain pass: the probe phase's requests (77 probes' turns, and the agent probes where tools are offered, as here)
    const plain = attempts.filter((a) => a.phase === 'probe').reduce((n, a) => n + a.turns.filter((t) => t.role === 'user').length, 0);
    expect(plain).toBeGreaterThanOrEqual(77);
    expect(requests).toBeLessThanOrEqual(3 * plain);
  });
});

describe('how findings got through the guardrails', () => {
  jest.setTimeout(120_000);
  it('each guardrail is named by how the findings got through it', async () => {
    const bypassed = async (kind: (typeof FOREIGN_BOT_KINDS)[number], how: RegExp) => (await scan(await startForeignBot(kind), kind)).vulnerabilities.some((v) => how.test(v.how));
    expect(await bypassed('input-filter', /request sent through \S+ \((encoding|obfuscation)\)/i)).toBe(true);
    expect(await bypassed('output-filter', /answer asked for as .*; the answer (decoded|reversed|joined|read)/i)).toBe(true);
    expect(await bypassed('crescendo-4', /crescendo arc of [4-9] turns/)).toBe(true);
  });
});
