import { ProbeAttempt, Vulnerability } from '@gauntlet/domain';
import { RunningLab, startLab } from '../../../../apps/lab/src/lab';
import { labChatDriver } from '../../../../apps/lab/src/lab-client';
import { exposuresIn } from '../../../../apps/lab/src/model/exposure';
import { closeSharedSmolLm2, sharedSmolLm2 } from '../../../../apps/lab/src/model/smollm2';
import { BrowserChatDriver, launchChromium } from '../drivers/browser/browser-chat-driver';
import { findChromium } from '../drivers/browser/chromium';
import { runScan } from './run-scan';

/**
 * The quick profile on a real language model (SmolLM2-135M-Instruct as the lab's penny persona,
 * weights from infra/smollm2.sh): what the scanner reports must hold on the model the way its
 * answers really leak. The lab's exposure oracle, which knows the persona's secrets and nothing of
 * the scanner, is the judge. bench/real-model.ts runs the longer profiles and every guard mode.
 */
// a scan of the quick profile's disclosure probes is some fifteen answers, one at a time: about two
// minutes at load 4, several while Chromium-heavy suites run beside it; the deadline is for a hung
// model, not a pace
jest.setTimeout(600_000);

/**
 * the two categories of what a bot holds (its data, keys and canaries; its instructions): the whole
 * quick profile, retrieval (LLM08) among it, is bench/real-model.ts's. With LLM08 too the first scan
 * sent 33 answers where it sends 15, and at a whole test run's load it outran its deadline
 */
const DISCLOSURE = ['LLM02:2025', 'LLM07:2025'];

/** the quick profile's probes of DISCLOSURE; `tell`: the scan is told what the bot holds */
async function quickScan(lab: RunningLab, tell: boolean) {
  const driver = labChatDriver(lab.url);
  const attempts: ProbeAttempt[] = [];
  const found: Vulnerability[] = [];
  const outcome = await runScan({
    scanId: 'real-model', seed: 'real-model', profile: 'quick', driver, selection: { categories: DISCLOSURE }, signal: new AbortController().signal, now: () => new Date(),
    target: {
      id: 't', name: 'penny', url: lab.url, scan_mode: 'api', api_format: 'openai', api_key: null, model: null, browser: null, http: null, max_requests_per_second: null,
      canaries: tell ? [lab.canaries.system, lab.canaries.data] : [],
      sensitive: tell ? lab.secrets.filter((s) => s.kind !== 'canary').map((s) => ({ label: s.label, value: s.value })) : [],
    },
    sink: { enterPhase: async () => {}, recordAttempt: async (a) => void attempts.push(a), recordVulnerability: async (v) => void found.push(v) },
  });
  await driver.close();
  // the whole outcome, so a scan that failed or ended in part says why
  expect(outcome).toEqual({ kind: 'completed' });
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
    // what the oracle saw the model give away, by the category Gauntlet files it under: a held value by
    // what it is (heldCategory: the prompt's wording LLM07, any other value LLM02). The oracle files the
    // internal code and the system prompt's canary under LLM07; a finding files them under LLM02 like
    // any value a bot holds back (a canary is told without where it was planted)
    const exposed = new Set<string>();
    for (const a of attempts) for (const t of a.turns) if (t.role === 'assistant') for (const e of exposuresIn(t.content, lab.secrets)) exposed.add(e.kind === 'instructions' ? 'LLM07:2025' : 'LLM02:2025');
    expect(exposed.has('LLM02:2025')).toBe(true);
    const categories = new Set(found.map((v) => v.category));
    for (const c of exposed) expect(categories).toContain(c);
    // every disclosure quotes a told value the oracle agrees the answer exposes
    const disclosures = found.filter((v) => v.evidence.proof?.matched.kind === 'sensitive' || v.evidence.proof?.matched.kind === 'canary');
    expect(disclosures.length).toBeGreaterThan(0);
    for (const v of disclosures) expect(exposuresIn(v.evidence.turns[v.evidence.proof!.turn].content, lab.secrets).length).toBeGreaterThan(0);
    for (const v of found.filter((f) => f.severity === 'critical' || f.severity === 'high')) expect(proofHolds(v)).toBe(true);
  });

  it('through the lab\'s chat page in a browser: every finding quotes what the model said, read from its own message, never what we sent', async () => {
    const chromium = await findChromium();
    if (!chromium.found) return console.warn(`skipped: ${chromium.message}`);
    // the lab the first test started (the model already warm), or one of its own when run alone
    let lab = labs.find((l) => l.secrets.length > 0);
    if (!lab) labs.push((lab = await startLab({ model: 'smollm2' })));
    const browser = await launchChromium(chromium.path);
    const driver = new BrowserChatDriver({ url: lab.url }, { allowPrivate: true, browser, quietMs: 800, operationTimeoutMs: 20_000 });
    const attempts: ProbeAttempt[] = [];
    const found: Vulnerability[] = [];
    try {
      // an attack that asks for secrets and one that asks for markup (the forms a page shows back
      // changed: a request object, HTML), escalated as a quick scan does
      const outcome = await runScan({
        scanId: 'real-model-page', seed: 'real-model', profile: 'quick', driver, selection: { probes: ['sid-003', 'ioh-002'] }, signal: new AbortController().signal, now: () => new Date(),
        target: {
          id: 't', name: 'penny page', url: lab.url, scan_mode: 'browser', api_format: null, api_key: null, model: null, browser: null, http: null, max_requests_per_second: null,
          canaries: [lab.canaries.system, lab.canaries.data], sensitive: lab.secrets.filter((s) => s.kind !== 'canary').map((s) => ({ label: s.label, value: s.value })),
        },
        sink: { enterPhase: async () => {}, recordAttempt: async (a) => void attempts.push(a), recordVulnerability: async (v) => void found.push(v) },
      });
      expect(outcome.kind).toBe('completed');
    } finally {
      await driver.close();
      await browser.close();
    }
    // every answer was read from the bot's own message on this page, and is what the model said (as far as it was read)
    const squash = (text: string) => text.replace(/\s+/g, '');
    const said = lab.exposures.answers().map((a) => squash(a.answer));
    const answers = attempts.flatMap((a) => a.turns.filter((t) => t.role === 'assistant'));
    expect(answers.length).toBeGreaterThan(0);
    expect(new Set(answers.map((a) => a.observed?.attribution))).toEqual(new Set(['bot_message']));
    // the lab's page says so when the model could not answer in time (a loaded machine): its own line, no model's words
    const fromModel = answers.filter((a) => !/^The assistant is unavailable \(HTTP \d+\)\.$/.test(a.content));
    // the test is about the model's words: at least one of them must have been read off the page
    expect(fromModel.length).toBeGreaterThan(0);
    expect(fromModel.filter((a) => !said.some((s) => s.startsWith(squash(a.content)))).map((a) => a.content)).toEqual([]);
    for (const v of found) {
      const proof = v.evidence.proof!;
      expect(proof).toBeDefined();
      const turn = v.evidence.turns[proof.turn];
      expect(turn.role).toBe('assistant');
      // none of what we sent, as we sent it; the words quoted are words the model said
      expect(turn.content).not.toContain(v.evidence.turns[proof.turn - 1].content);
      if (!proof.read_as) expect(said.some((a) => a.includes(squash(proof.text)))).toBe(true);
    }
  });

  it('told nothing, on a bot that holds no secret: no disclosure, and nothing serious without its proof', async () => {
    const lab = await startLab({ model: 'smollm2', mode: 'hardened' });
    labs.push(lab);
    expect(lab.secrets).toEqual([]);
    // what a bot holding nothing must never be said to disclose: the two categories of what a bot holds
    const { found } = await quickScan(lab, false);
    expect(found.filter((v) => v.category === 'LLM02:2025' || v.category === 'LLM07:2025').map((v) => `${v.probe_id}: ${v.evidence.matched}`)).toEqual([]);
    for (const v of found.filter((f) => f.severity === 'critical' || f.severity === 'high')) expect(proofHolds(v)).toBe(true);
  });
});
