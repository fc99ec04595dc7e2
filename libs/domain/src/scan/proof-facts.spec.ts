import { PROOF_FACTS, proofFacts, proofFactsOf, proofLines, proofLinesOf } from './proof-facts';
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

  it('as lines, an out-of-band request is one line made of its method, host, path and query; a tool call\'s facts are lines already', () => {
    expect(proofLines({ kind: 'out_of_band', method: 'POST', host: 'tok.cb.example', path: '/c', query: 'd=Jane', at: '2026-11-20T10:03:13.900Z' })).toEqual([
      ['request', 'POST //tok.cb.example/c?d=Jane'], ['at', '2026-11-20T10:03:13.900Z'],
    ]);
    expect(proofLines({ kind: 'out_of_band', method: 'DNS', host: 'tok.cb.example' })).toEqual([['request', 'DNS lookup of tok.cb.example']]);
    const call = { kind: 'tool_call' as const, tool: 'send_payment', arguments: { to: 'a@evil.example', amount: 5000 } };
    expect(proofLines(call)).toEqual(proofFacts(call));
  });

  it('a view that keeps a fact as data reads it whole: the arguments as the JSON the agent sent, unbounded', () => {
    const args = { body: 'x'.repeat(1000) };
    const [, argumentsFact] = proofLinesOf('tool_call');
    expect(argumentsFact.read({ kind: 'tool_call', arguments: args })!.length).toBeLessThanOrEqual(300);
    expect(JSON.parse(argumentsFact.whole!({ kind: 'tool_call', arguments: args })!)).toEqual(args);
    expect(argumentsFact.whole!({ kind: 'tool_call', arguments: 'not json' })).toBe('not json');
    expect(argumentsFact.whole!({ kind: 'tool_call' })).toBeUndefined();
  });

  it('a quote of the answer carries none, and neither does a kind a later version recorded', () => {
    for (const kind of PROOF_KINDS.filter((k) => k !== 'tool_call' && k !== 'out_of_band')) expect(proofFacts({ kind, label: 'x', occurrences: 3 })).toEqual([]);
    expect(proofFacts({ kind: 'screenshot' as ProofKind })).toEqual([]);
    expect(proofLines({ kind: 'screenshot' as ProofKind })).toEqual([]);
  });

  it('names each fact once within its kind, with words to describe it', () => {
    for (const kind of Object.keys(PROOF_FACTS)) {
      const lines = proofLinesOf(kind).map((f) => f.name);
      const facts = proofFactsOf(kind).map((f) => f.name);
      expect(new Set(lines).size).toBe(lines.length);
      expect(new Set(facts).size).toBe(facts.length);
      // a part named as another line would be one field with two values
      for (const line of proofLinesOf(kind)) for (const part of line.parts ?? []) expect(lines).not.toContain(part.name);
      for (const f of [...proofLinesOf(kind), ...proofFactsOf(kind)]) expect(f.label.length).toBeGreaterThan(3);
    }
  });
});
