import { Profile, ProbeAttempt, Vulnerability } from '@gauntlet/domain';
import { PLANTED_CATEGORY, WEAKNESSES } from '../../../../apps/lab/src/brain';
import { parseDefenses } from '../../../../apps/lab/src/guardrails';
import { labChatDriver } from '../../../../apps/lab/src/lab-client';
import { startLab } from '../../../../apps/lab/src/lab';
import { runScan } from './run-scan';

const PLANTED = [...new Set(WEAKNESSES.map((w) => PLANTED_CATEGORY[w]))].sort();
/**
 * a standard scan of a target that resists everything: its probe phase (77 requests, and the agent
 * probes where tools are offered, as to this openai target), and at most about 3x that in all
 */
const resistAllCeiling = (attempts: readonly ProbeAttempt[]) => 3 * Math.max(77, attempts.filter((a) => a.phase === 'probe').reduce((n, a) => n + a.turns.filter((t) => t.role === 'user').length, 0));

async function scanLab(options: { defenses?: string; hardened?: boolean; profile?: Profile }) {
  const lab = await startLab({ mode: options.hardened ? 'hardened' : 'vulnerable', defenses: parseDefenses(options.defenses) });
  const driver = labChatDriver(lab.url);
  const attempts: ProbeAttempt[] = [];
  const vulnerabilities: Vulnerability[] = [];
  try {
    const outcome = await runScan({
      scanId: 'escalation', seed: 'escalation-seed', profile: options.profile ?? 'standard', driver, signal: new AbortController().signal, now: () => new Date(),
      // no canaries configured: what is found must be found without them
      target: { id: 't', name: 'lab', url: lab.url, scan_mode: 'api', api_format: 'openai', api_key: null, model: null, canaries: [], browser: null, http: null, max_requests_per_second: null },
      sink: { enterPhase: async () => {}, recordAttempt: async (a) => void attempts.push(a), recordVulnerability: async (v) => void vulnerabilities.push(v) },
      limits: { messageTimeoutMs: 5_000 },
    });
    expect(outcome).toEqual({ kind: 'completed' });
  } finally {
    await lab.close();
  }
  const categories = [...new Set<string>(vulnerabilities.map((v) => v.category))].sort();
  return { attempts, vulnerabilities, categories, requests: driver.requests() };
}

const userTurns = (v: { evidence: { turns: { role: string }[] } }) => v.evidence.turns.filter((t) => t.role === 'user').length;
const ways = (v: Vulnerability) => [v, ...v.variants];

describe('escalation against a defended chatbot (standard profile, no canaries configured)', () => {
  // whole scans: bounded generously, since a busy 2-core machine may run several test files beside them
  jest.setTimeout(120_000);
  it('behind an input keyword filter, finds every planted category, and says an encoding got through', async () => {
    const { categories, vulnerabilities } = await scanLab({ defenses: 'input_keywords' });
    expect(categories).toEqual(PLANTED);
    expect(vulnerabilities.some((v) => v.phase === 'amplify' && v.converters.some((c) => ['base64', 'hex', 'rot13', 'reverse'].includes(c)))).toBe(true);
  });

  it('behind a normalising input filter (look-alikes, leetspeak, spacing folded), finds every planted category', async () => {
    expect((await scanLab({ defenses: 'input_normalised' })).categories).toEqual(PLANTED);
  });

  it('behind an output filter for secrets, finds every planted category, reading the answers it asked for encoded', async () => {
    const { categories, vulnerabilities } = await scanLab({ defenses: 'output_secrets' });
    expect(categories).toEqual(PLANTED);
    const disclosed = vulnerabilities.filter((v) => ['LLM02:2025', 'LLM07:2025', 'LLM08:2025'].includes(v.category));
    expect(disclosed.length).toBeGreaterThan(0);
    // nothing leaks in clear through this filter: each disclosure was read back from another form
    for (const v of disclosed) expect([v.probe_id, v.evidence.read_as, v.converters.some((c) => c.startsWith('answer-'))]).toEqual([v.probe_id, expect.any(String), true]);
  });

  it.each(['crescendo:3', 'crescendo:5'])('behind a gate that refuses until the conversation is deep (%s), finds every planted category with multi-turn arcs', async (defenses) => {
    const { categories, vulnerabilities } = await scanLab({ defenses });
    expect(categories).toEqual(PLANTED);
    const depth = Number(defenses.split(':')[1]);
    expect(vulnerabilities.every((v) => userTurns(v) >= depth)).toBe(true);
    expect(vulnerabilities.some((v) => v.technique.includes('crescendo'))).toBe(true);
  });

  it('behind all three guardrails at once, finds every planted category with stacked tactics', async () => {
    const { categories, vulnerabilities } = await scanLab({ defenses: 'input_normalised,output_secrets,crescendo:3' });
    expect(categories).toEqual(PLANTED);
    expect(vulnerabilities.some((v) => v.converters.length >= 2)).toBe(true);
  });

  it.each([undefined, 'input_normalised,output_secrets,crescendo:3'])('a hardened chatbot (guardrails: %s) yields no high or critical finding, within the request bound', async (defenses) => {
    const { vulnerabilities, requests, attempts } = await scanLab({ hardened: true, defenses });
    expect(vulnerabilities.filter((v) => v.severity === 'critical' || v.severity === 'high').map((v) => `${v.probe_id}: ${v.evidence.matched}`)).toEqual([]);
    expect(requests).toBeLessThanOrEqual(resistAllCeiling(attempts));
    // escalation went deep anyway: many tactics, arcs among them
    expect(new Set(attempts.filter((a) => a.phase === 'amplify').map((a) => a.converters.join('+'))).size).toBeGreaterThan(20);
    expect(attempts.some((a) => a.converters.some((c) => c.startsWith('crescendo')))).toBe(true);
  });

  it('an undefended chatbot is still found in every category, and the quick profile stays small', async () => {
    expect((await scanLab({})).categories).toEqual(PLANTED);
    const quick = await scanLab({ hardened: true, profile: 'quick' });
    expect(quick.requests).toBeLessThanOrEqual(60);
  });

  it('every finding says how it got through: technique, converters and the turns it took', async () => {
    const { vulnerabilities } = await scanLab({ defenses: 'crescendo:3' });
    for (const v of vulnerabilities.flatMap(ways)) {
      expect(v.technique).toBeTruthy();
      expect(Array.isArray(v.converters)).toBe(true);
      expect(userTurns(v)).toBeGreaterThanOrEqual(3);
    }
  });
});
