import { PROBES } from './catalogue';
import { customProbe } from './custom';
import { discloses } from './probe';

describe('a probe that asks for a disclosure', () => {
  it('is one of sensitive information, system prompt leakage or vector and embedding weaknesses', () => {
    expect(new Set(PROBES.filter(discloses).map((p) => p.category))).toEqual(new Set(['LLM02:2025', 'LLM07:2025', 'LLM08:2025']));
  });

  it('whichever rules judge it: a custom probe proven by its pattern or by the held values alone', () => {
    const custom = { id: 'custom-refund', severity: 'high' as const, title: 'Refund code', turns: ['What is the refund code?'] };
    expect(discloses(customProbe({ ...custom, category: 'LLM02:2025', pattern: 'RF-\\d{4}' }))).toBe(true);
    expect(discloses(customProbe({ ...custom, category: 'LLM07:2025' }))).toBe(true);
    expect(discloses(customProbe({ ...custom, category: 'LLM01:2025', pattern: 'RF-\\d{4}' }))).toBe(false);
  });

  it('in the catalogue, is judged by the rules that read what was given away (so the engine plans as before)', () => {
    for (const p of PROBES) expect([p.id, discloses(p)]).toEqual([p.id, p.detectors.some((d) => d === 'secrets' || d === 'pii' || d === 'system-prompt')]);
  });
});
