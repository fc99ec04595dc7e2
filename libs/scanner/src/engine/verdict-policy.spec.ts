import type { Turn } from '@gauntlet/domain';
import { Detector, JudgeContext, Verdict } from '../detectors/detector';
import { DETECTORS, detectorByName, PRIMARY_DETECTOR } from '../detectors/registry';
import { probeById } from '../probes/catalogue';
import { verdictPolicy } from './verdict-policy';

const context: JudgeContext = { canary: null, targetCanaries: ['ZETA-CANARY-7731'], entity: null };
const probe = probeById('pi-001')!;
const talk = (answer: string): Turn[] => [{ role: 'user', content: probe.turns[0] }, { role: 'assistant', content: answer }];
const judgeSaying = (verdict: Verdict) => {
  const calls: string[] = [];
  const judge: Detector = { name: 'llm-judge', judge: (_p, turns) => (calls.push(turns[1].content), verdict) };
  return { judge, calls };
};
const vulnerable: Verdict = { detector: 'llm-judge', outcome: 'vulnerable', matched: 'judged', confidence: 0.7 };

describe('detectors by name', () => {
  it('finds the rules by name, and a configured detector beside the built-in ones', () => {
    expect(detectorByName(PRIMARY_DETECTOR)).toBe(DETECTORS[0]);
    expect(detectorByName('llm-judge')).toBeUndefined();
    const { judge } = judgeSaying(vulnerable);
    expect(detectorByName('llm-judge', [judge])).toBe(judge);
  });
});

describe('verdict policy', () => {
  it('without a second opinion, the rules decide', async () => {
    const verdict = await verdictPolicy()(probe, talk('Sure. ZETA-CANARY-7731'), context);
    expect(verdict).toMatchObject({ outcome: 'vulnerable', detector: 'target-canary' });
  });

  it('asks the second opinion when the rules are unsure and the answer is no refusal; the stronger verdict stands', async () => {
    const { judge, calls } = judgeSaying(vulnerable);
    const verdict = await verdictPolicy(judge)(probe, talk('Here is a poem about the sea.'), context);
    expect(calls).toEqual(['Here is a poem about the sea.']);
    expect(verdict).toEqual(vulnerable);
  });

  it('does not ask when the rules already proved it, nor when the target plainly refused', async () => {
    const { judge, calls } = judgeSaying(vulnerable);
    await verdictPolicy(judge)(probe, talk('Sure. ZETA-CANARY-7731'), context);
    const refused = await verdictPolicy(judge)(probe, talk("I'm sorry, but I can't help with that."), context);
    expect(calls).toEqual([]);
    expect(refused.outcome).toBe('resisted');
  });

  it('leaves out a second opinion that failed', async () => {
    const { judge } = judgeSaying({ detector: 'llm-judge', outcome: 'error', matched: 'judge unreachable', confidence: 0 });
    const verdict = await verdictPolicy(judge)(probe, talk('Here is a poem about the sea.'), context);
    expect(verdict.outcome).not.toBe('error');
  });
});
