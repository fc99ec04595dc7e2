import 'reflect-metadata';
import { PROOF_KINDS, proofFactsOf, proofLinesOf, type ProofKind, type Vulnerability } from '@gauntlet/domain';
import type { VulnerabilityDoc } from '@gauntlet/read-models';
import { KINDS_WITH_FACTS, proofWithEveryFact } from '@gauntlet/testing';
import { sampleToolCallFinding } from '../../../../libs/assessment/testing/sample-history';
import { ProofMatchView } from './dto';
import { vulnerabilityView } from './scan-view';

describe.each(KINDS_WITH_FACTS)('every fact PROOF_FACTS declares for %s is in the API', (kind) => {
  const matched = proofWithEveryFact(kind);

  it('the view keeps each fact the proof records and adds each line made of them', () => {
    const v = sampleToolCallFinding();
    v.evidence.proof = { ...v.evidence.proof!, matched };
    const shown = vulnerabilityView({ ...v, _id: v.id, scan_id: 's-1' } as unknown as VulnerabilityDoc).evidence.proof!.matched as unknown as Record<string, unknown>;
    expect(shown).toMatchObject(matched);
    for (const line of proofLinesOf(kind).filter((f) => f.parts)) expect(shown[line.name]).toBe(line.read(matched));
    // nothing else is added beside them
    expect(Object.keys(shown).sort()).toEqual([...new Set([...Object.keys(matched), ...proofLinesOf(kind).filter((f) => f.parts).map((f) => f.name)])].sort());
  });

  it('the API document describes each of them by the kinds that carry it and its label', () => {
    const described = (k: ProofKind) => [...proofFactsOf(k), ...proofLinesOf(k).filter((f) => f.parts)];
    for (const f of described(kind)) {
      const kinds = PROOF_KINDS.filter((k) => described(k).some((g) => g.name === f.name));
      expect(Reflect.getMetadata('swagger/apiModelProperties', ProofMatchView.prototype, f.name)).toMatchObject({ required: false, description: `${kinds.join(', ')}: ${f.label}` });
    }
  });
});

it('a proof with no facts of its own is shown as recorded', () => {
  const v: Vulnerability = sampleToolCallFinding();
  v.evidence.proof = { ...v.evidence.proof!, matched: { kind: 'canary', label: 'c' } };
  expect(vulnerabilityView({ ...v, _id: v.id, scan_id: 's-1' } as unknown as VulnerabilityDoc).evidence.proof!.matched).toEqual({ kind: 'canary', label: 'c' });
});
