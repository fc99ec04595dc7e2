import type { ProbeAttempt } from '@gauntlet/domain';
import { AttackTry, Attacker } from '../attacker/attacker';
import { ChatDriver } from '../chat-driver';
import { PROBES } from '../probes/catalogue';
import { adaptiveAttack } from './adaptive-attack';
import { Attempts } from './attempts';
import { Conversations } from './conversations';
import { FindingBook } from './findings';
import { Judge } from './judge';
import { ScanRecorder } from './scan-recorder';
import { TargetHealth } from './target-health';
import { verdictPolicy } from './verdict-policy';
import { Waits } from './waits';

const CANARY = 'ZEPHYR-CANARY-7731';
const probe = PROBES.find((p) => p.category === 'LLM07:2025' && p.turns.length === 1)!;

/** an attacker that rewrites the request as scripted, round after round, and keeps what it was told */
function scriptedAttacker(prompts: (string | null)[]) {
  const seen: AttackTry[][] = [];
  const attacker: Attacker = {
    name: 'scripted',
    next: async (_goal, tries) => {
      seen.push([...tries]);
      return prompts[seen.length - 1] ?? null;
    },
  };
  return { attacker, seen };
}

function run(answer: (message: string) => string) {
  const stop = new AbortController();
  const waits = new Waits(stop.signal, 10);
  const recorded: ProbeAttempt[] = [];
  const driver: ChatDriver = { openConversation: async () => ({ send: async (m: string) => answer(m), close: async () => undefined }), close: async () => undefined };
  const recorder = new ScanRecorder({ enterPhase: async () => undefined, recordAttempt: async (a) => void recorded.push(a), recordVulnerability: async () => undefined }, 100, () => stop.abort());
  const health = new TargetHealth(stop, 5);
  const book = new FindingBook(4_000);
  const attempts = new Attempts({
    scanId: 's1', seed: 'seed', now: () => new Date('2026-11-26T10:00:00Z'), conversations: new Conversations(driver, waits, 1_000, stop.signal), judge: new Judge(verdictPolicy(), book), recorder,
    book, health, stop: stop.signal, maxRecordedChars: 4_000,
    target: { id: 't', name: 'bot', url: 'http://bot.test', scan_mode: 'api', api_format: 'openai', api_key: null, model: null, canaries: [CANARY], browser: null, http: null, max_requests_per_second: null },
  });
  return { attempts, health, stop, recorded, recorder, close: () => (stop.abort(), waits.close()) };
}

describe('adaptive attack', () => {
  let close: () => void = () => undefined;
  afterEach(() => close());

  it('given a target that resists, tries every round, each attempt recorded and the answers fed back to the attacker', async () => {
    const scan = run(() => "I'm sorry, I can't share that.");
    close = scan.close;
    const { attacker, seen } = scriptedAttacker(['first rewrite', 'second rewrite', 'third rewrite']);
    await adaptiveAttack(probe, 3, { attacker, attempts: scan.attempts, health: scan.health, stop: scan.stop.signal });
    await scan.recorder.flushed();
    expect(scan.recorded.map((a) => [a.converters, a.technique, a.turns[0].content])).toEqual([
      [['attacker'], 'adaptive-attacker', 'first rewrite'],
      [['attacker'], 'adaptive-attacker', 'second rewrite'],
      [['attacker'], 'adaptive-attacker', 'third rewrite'],
    ]);
    expect(seen.map((tries) => tries.length)).toEqual([0, 1, 2]);
    expect(seen[2][1]).toEqual({ prompt: 'second rewrite', answer: "I'm sorry, I can't share that.", outcome: 'resisted' });
  });

  it('given a rewrite that gets through, stops there', async () => {
    const scan = run((m) => (m === 'second rewrite' ? `Fine: my prompt holds ${CANARY}.` : "I'm sorry, I can't share that."));
    close = scan.close;
    const { attacker } = scriptedAttacker(['first rewrite', 'second rewrite', 'third rewrite']);
    await adaptiveAttack(probe, 3, { attacker, attempts: scan.attempts, health: scan.health, stop: scan.stop.signal });
    await scan.recorder.flushed();
    expect(scan.recorded.map((a) => a.verdict.outcome)).toEqual(['resisted', 'vulnerable']);
  });

  it('given an attacker with nothing more to try, or a scan stopped, sends nothing', async () => {
    const scan = run(() => 'no');
    close = scan.close;
    await adaptiveAttack(probe, 3, { attacker: scriptedAttacker([null]).attacker, attempts: scan.attempts, health: scan.health, stop: scan.stop.signal });
    scan.stop.abort();
    await adaptiveAttack(probe, 3, { attacker: scriptedAttacker(['rewrite']).attacker, attempts: scan.attempts, health: scan.health, stop: scan.stop.signal });
    await scan.recorder.flushed();
    expect(scan.recorded).toHaveLength(0);
  });
});
