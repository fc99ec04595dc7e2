import { PROOF_FACTS, proofFacts } from './proof-facts';
import { PROOF_KINDS, type ProofKind } from './vulnerability';

describe('proof facts: what each proof kind carries of its own, declared once', () => {
  it('a tool call carries the tool and its arguments on one bounded line', () => {
    expect(proofFacts({ kind: 'tool_call', tool: 'send_payment', arguments: { to: 'a@evil.example', amount: 5000 } })).toEqual([
      ['tool', 'send_payment'],
      ['arguments', 'to="a@evil.example", amount=5000'],
    ]);
    expect(proofFacts({ kind: 'tool_call' })).toEqual([['tool', ''], ['arguments', '']]);
  });

  it('an out-of-band request carries its method and path always, its host, query and time when it had them', () => {
    expect(proofFacts({ kind: 'out_of_band', path: '/oob/7f3a/c', query: 'd=Jane', at: '2026-11-20T10:03:13.900Z' })).toEqual([
      ['method', 'GET'], ['path', '/oob/7f3a/c'], ['query', 'd=Jane'], ['at', '2026-11-20T10:03:13.900Z'],
    ]);
    expect(proofFacts({ kind: 'out_of_band', method: 'DNS', host: 'tok.cb.example' })).toEqual([['method', 'DNS'], ['path', ''], ['host', 'tok.cb.example']]);
  });

  it('a quote of the answer carries none, and neither does a kind a later version recorded', () => {
    for (const kind of PROOF_KINDS.filter((k) => k !== 'tool_call' && k !== 'out_of_band')) expect(proofFacts({ kind, label: 'x', occurrences: 3 })).toEqual([]);
    expect(proofFacts({ kind: 'screenshot' as ProofKind })).toEqual([]);
  });

  it('names each fact once within its kind, with words to describe it', () => {
    for (const facts of Object.values(PROOF_FACTS)) {
      expect(new Set(facts.map((f) => f.name)).size).toBe(facts.length);
      for (const f of facts) expect(f.label.length).toBeGreaterThan(3);
    }
  });
});
