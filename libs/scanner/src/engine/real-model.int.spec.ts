import { ProbeAttempt, Vulnerability } from '@gauntlet/domain';
import { RunningLab, startLab } from '../../../../apps/lab/src/lab';
import { labChatDriver } from '../../../../apps/lab/src/lab-client';
import { exposuresIn } from '../../../../apps/lab/src/model/exposure';
import { closeSharedSmolLm2, sharedSmolLm2 } from '../../../../apps/lab/src/model/smollm2';
import { runScan } from './run-scan';

/**
 * The quick profile on a real language model (SmolLM2-135M-Instruct as the lab's penny persona,
 * weights from infra/smollm2.sh): what the scanner reports must hold on the model the way its
 * answers really leak. The lab's exposure oracle, which knows the persona's secrets and nothing of
 * the scanner, is the judge. bench/real-model.ts runs the longer profiles and every guard mode.
 */
// a quick scan is some sixty answers, one at a time: about a minute on a quiet machine
jest.setTimeout(420_000);

async function quickScan(lab: RunningLab, tell: boolean, categories?: string[]) {
  const driver = labChatDriver(lab.url);
  const attempts: ProbeAttempt[] = [];
  const found: Vulnerability[] = [];
  const outcome = await runScan({
    scanId: 'real-model', seed: 'real-model', profile: 'quick', driver, ...(categories && { selection: { categories } }), signal: new AbortController().signal, now: () => new Date(),
    target: {
      id: 't', name: 'penny', url: lab.url, scan_mode: 'api', api_format: 'openai', api_key: null, model: null, browser: null, http: null, max_requests_per_second: null,
      canaries: tell ? [lab.canaries.system, lab.canaries.data] : [],
      sensitive: tell ? lab.secrets.filter((s) => s.kind !== 'canary').map((s) => ({ label: s.label, value: s.value })) : [],
    },
    sink: { enterPhase: async () => {}, recordAttempt: async (a) => void attempts.push(a), recordVulnerability: async (v) => void found.push(v) },
  });
  await driver.close();
  expect(outcome.kind).toBe('completed');
  return { attempts, found };
}

/** the proof is text of the answer at the turn it names, where it says */
function proofHolds(v: Vulnerability): boolean {
  const p = v.evidence.proof;
  if (!p) return false;
  const turn = v.evidence.turns[p.turn];
  if (!turn || turn.role !== 'assistant') return false;
  return p.read_as ? p.text.length > 0 : turn.content.slice(p.start, p.end) === p.text;
}

describe('a quick scan of a real language model', () => {
  const labs: RunningLab[] = [];
  beforeAll(() => sharedSmolLm2().assertAvailable());
  afterAll(async () => {
    await Promise.all(labs.map((l) => l.close()));
    await closeSharedSmolLm2();
  });

  it('told what the bot holds: the leaks the model makes are reported by label, and every serious finding quotes one', async () => {
    const lab = await startLab({ model: 'smollm2' });
    labs.push(lab);
    const { attempts, found } = await quickScan(lab, true);
    // what the oracle saw the model give away, by category
    const exposed = new Set<string>();
    for (const a of attempts) for (const t of a.turns) if (t.role === 'assistant') for (const e of exposuresIn(t.content, lab.secrets)) exposed.add(e.category);
    expect(exposed.has('LLM02:2025')).toBe(true);
    const categories = new Set(found.map((v) => v.category));
    for (const c of exposed) expect(categories).toContain(c);
    // every disclosure quotes a told value the oracle agrees the answer exposes
    const disclosures = found.filter((v) => v.evidence.proof?.matched.kind === 'sensitive' || v.evidence.proof?.matched.kind === 'canary');
    expect(disclosures.length).toBeGreaterThan(0);
    for (const v of disclosures) expect(exposuresIn(v.evidence.turns[v.evidence.proof!.turn].content, lab.secrets).length).toBeGreaterThan(0);
    for (const v of found.filter((f) => f.severity === 'critical' || f.severity === 'high')) expect(proofHolds(v)).toBe(true);
  });

  it('told nothing, on a bot that holds no secret: no disclosure, and nothing serious without its proof', async () => {
    const lab = await startLab({ model: 'smollm2', mode: 'hardened' });
    labs.push(lab);
    expect(lab.secrets).toEqual([]);
    // the disclosure categories only: what a bot holding nothing must never be said to disclose
    const { found } = await quickScan(lab, false, ['LLM02:2025', 'LLM07:2025', 'LLM08:2025']);
    expect(found.filter((v) => v.category === 'LLM02:2025' || v.category === 'LLM07:2025').map((v) => `${v.probe_id}: ${v.evidence.matched}`)).toEqual([]);
    for (const v of found.filter((f) => f.severity === 'critical' || f.severity === 'high')) expect(proofHolds(v)).toBe(true);
  });
});
