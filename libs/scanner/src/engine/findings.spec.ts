import { Verdict } from '@gauntlet/domain';
import { probeById } from '../probes/catalogue';
import { FindingBook, Sighting } from './findings';

const at = (s: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, s));
const seen = (probeId: string, outcome: Verdict['outcome'], converters: string[], second: number, over: Partial<Sighting> = {}): Sighting => ({
  probe: probeById(probeId)!,
  technique: converters.length ? 'encoding' : probeById(probeId)!.technique,
  converters,
  phase: converters.length ? 'amplify' : 'probe',
  verdict: { detector: 'canary', outcome, matched: 'X', confidence: outcome === 'vulnerable' ? 0.99 : 0.6 },
  turns: [{ role: 'user', content: `ask ${converters.join('+')}` }, { role: 'assistant', content: 'answer '.repeat(200) }],
  foundAt: at(second),
  exposure: null,
  ...over,
});

describe('the finding book', () => {
  it('says which weaknesses a sighting proved first, named as their findings will be', () => {
    const book = new FindingBook(4_000);
    expect(book.add(seen('pi-001', 'partial', [], 1))).toEqual([
      { fingerprint: 'pi-001:LLM01:2025', probe_id: 'pi-001', category: 'LLM01:2025', category_name: 'Prompt Injection', title: probeById('pi-001')!.title },
    ]);
    expect(book.add(seen('pi-001', 'vulnerable', ['hex'], 2))).toEqual([]);
    const [v] = book.vulnerabilities('scan-1');
    expect([v.fingerprint, v.title, v.category_name]).toEqual(['pi-001:LLM01:2025', probeById('pi-001')!.title, 'Prompt Injection']);
  });

  it('picks the same evidence whatever order equally strong sightings arrive in', () => {
    const sightings = [seen('pi-001', 'vulnerable', ['hex'], 3), seen('pi-001', 'vulnerable', [], 1), seen('pi-001', 'vulnerable', ['base64'], 2)];
    const evidence = (order: Sighting[]) => {
      const book = new FindingBook(4_000);
      for (const s of order) book.add(s);
      const [v] = book.vulnerabilities('scan-1');
      return { converters: v.converters, variants: v.variants.map((x) => x.converters.join('+')).sort() };
    };
    const expected = { converters: [], variants: ['base64', 'hex'] };
    expect(evidence(sightings)).toEqual(expected);
    expect(evidence([...sightings].reverse())).toEqual(expected);
    expect(evidence([sightings[2], sightings[0], sightings[1]])).toEqual(expected);
  });

  it('files one finding per weakness: the strongest sighting is its evidence, every other way in a variant', () => {
    const book = new FindingBook(4_000);
    book.add(seen('pi-001', 'partial', [], 1));
    book.add(seen('pi-001', 'vulnerable', ['base64'], 2));
    book.add(seen('pi-001', 'vulnerable', ['hex'], 3));
    book.add(seen('pi-001', 'partial', ['hex'], 4)); // weaker than the hex sighting already kept
    book.add(seen('pi-002', 'vulnerable', [], 5));
    const [first, second] = book.vulnerabilities('scan-1');
    expect(book.vulnerabilities('scan-1')).toHaveLength(2);
    expect(first).toMatchObject({ probe_id: 'pi-001', category: 'LLM01:2025', fingerprint: 'pi-001:LLM01:2025', converters: ['base64'], phase: 'amplify', severity: 'high' });
    expect(first.title).toBe(probeById('pi-001')!.title);
    expect(first.variants.map((v) => [v.converters.join('+'), v.found_at])).toEqual([['', at(1).toISOString()], ['hex', at(3).toISOString()]]);
    // variants keep short evidence; the attempts hold the rest
    expect(first.variants[0].evidence.turns[1].content.length).toBeLessThan(700);
    expect(second.variants).toEqual([]);
    // ids are stable for a scan and a weakness, whatever the order of sightings
    expect(new FindingBook(4_000).vulnerabilities('scan-1')).toEqual([]);
    const again = new FindingBook(4_000);
    again.add(seen('pi-002', 'vulnerable', [], 5));
    expect(again.vulnerabilities('scan-1')[0].id).toBe(second.id);
  });

  it('a partial success only is one step lower, with lower confidence', () => {
    const book = new FindingBook(4_000);
    book.add(seen('sid-003', 'partial', [], 1));
    expect(book.vulnerabilities('s')[0]).toMatchObject({ severity: 'medium', confidence: 0.48 });
  });

  it('a system-prompt disclosure exposing credentials is critical, and also a sensitive-information finding', () => {
    const book = new FindingBook(4_000);
    const exposure = { credentials: ['openai-api-key: sk-proj-abc'], personal_data: [] };
    book.add(seen('spl-004', 'partial', [], 1, { verdict: { detector: 'system-prompt', outcome: 'partial', matched: 'You are', confidence: 0.5 }, exposure }));
    const [leak, sensitive] = book.vulnerabilities('s');
    expect(leak).toMatchObject({ category: 'LLM07:2025', severity: 'critical', confidence: 0.9 });
    expect(sensitive).toMatchObject({ category: 'LLM02:2025', category_name: 'Sensitive Information Disclosure', severity: 'critical', fingerprint: 'spl-004:LLM02:2025' });
    expect(sensitive.evidence).toMatchObject({ detector: 'secrets', matched: 'credentials: openai-api-key: sk-proj-abc' });
    expect(sensitive.remediation).toMatch(/rotate any credential/);
    // an injection probe that happened to show a key is not rated as a disclosure
    const other = new FindingBook(4_000);
    other.add(seen('pi-001', 'vulnerable', [], 1, { exposure }));
    expect(other.vulnerabilities('s').map((v) => [v.category, v.severity])).toEqual([['LLM01:2025', 'high']]);
  });

  it('says how the answer was read when only a decoded reading showed the weakness', () => {
    const book = new FindingBook(4_000);
    book.add(seen('sid-003', 'vulnerable', ['answer-base64'], 1, { verdict: { detector: 'secrets', outcome: 'vulnerable', matched: 'k', confidence: 0.95, read_as: 'base64' } }));
    expect(book.vulnerabilities('s')[0].evidence).toMatchObject({ detector: 'secrets', read_as: 'base64' });
  });
});
