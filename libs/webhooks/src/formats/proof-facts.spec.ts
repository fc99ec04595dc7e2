import { proofFacts, proofFactsOf } from '@gauntlet/domain';
import { KINDS_WITH_FACTS, proofWithEveryFact } from '@gauntlet/testing';
import { agentCall } from '../../test/fixtures';
import { findingProof, type ScanEnvelope } from '../envelope';
import { CEF_PROOF_KEYS, escapeCefValue } from './cef';
import { render } from './index';
import { escapeSdValue } from './syslog';

/** vulnerability.critical for a finding proven by a proof of `kind` with every fact its kind declares */
function proven(kind: (typeof KINDS_WITH_FACTS)[number]): { envelope: ScanEnvelope; facts: [string, string][] } {
  const matched = proofWithEveryFact(kind);
  const proof = findingProof({ turn: 0, start: 0, end: 0, text: '', matched });
  const envelope = { ...agentCall, data: { ...agentCall.data, vulnerability: { ...agentCall.data.vulnerability!, proof } } };
  return { envelope, facts: proofFacts(matched) };
}
const body = (envelope: ScanEnvelope, format: string) => render(envelope, format, { productVersion: '0.1.0' }).body;

describe.each(KINDS_WITH_FACTS)('every fact PROOF_FACTS declares for %s is in every SIEM format', (kind) => {
  const { envelope, facts } = proven(kind);

  it('the envelope (json) carries each under its name, and OCSF keeps the proof whole', () => {
    // the sample has a value for every one
    expect(facts.map(([name]) => name)).toEqual(proofFactsOf(kind).map((f) => f.name));
    expect(JSON.parse(body(envelope, 'json')).data.vulnerability.proof).toMatchObject(Object.fromEntries(facts));
    expect(JSON.parse(body(envelope, 'ocsf')).unmapped.proof).toMatchObject(Object.fromEntries(facts));
  });

  it("syslog: each as proof_<name> in the structured data", () => {
    const line = body(envelope, 'syslog');
    for (const [name, value] of facts) expect(line).toContain(` proof_${name}="${escapeSdValue(value)}"`);
  });

  it("CEF: each that has a key of the standard's own under it", () => {
    const record = body(envelope, 'cef');
    for (const [name, value] of facts) {
      const key: string | null = CEF_PROOF_KEYS[name as keyof typeof CEF_PROOF_KEYS];
      if (key) expect(record).toContain(` ${key}=${escapeCefValue(value)}`);
    }
  });
});
