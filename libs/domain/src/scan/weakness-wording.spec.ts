import type { FindingExposure } from './vulnerability';
import { FindingFacts, findingWords } from './weakness-wording';
import type { Shown } from './weakness';

const facts = (shown: Shown, over: Partial<FindingFacts> = {}): FindingFacts => ({
  shown, exposures: [], via: [], ways_in: [{ probe_id: 'sid-006', title: 'Government ID disclosure' }], conversations: 1, partial: false, ...over,
});
const url: FindingExposure = {
  kind: 'credential', source: 'sensitive', label: 'records database URL', shown: 'postgres://clinic_admin:***@db.lakeside.internal', whole: true, conversations: 2, probes: ['sid-006'], first_seen: '2026-11-22T10:00:00.000Z', via: ['answer'], rotate: true,
};

describe("a finding's words come from its evidence", () => {
  it('given a credential said in an answer to an id-number probe, then the title names the credential and how, the probe only as the way in', () => {
    const words = findingWords(facts({ kind: 'value', label: 'records database URL', value_kind: 'credential', source: 'sensitive' }, { exposures: [url], via: ['answer'] }));
    expect(words.title).toBe('Reveals its records database URL (a credential) in its answers');
    expect(words.description).toMatch(/^It gave away: records database URL \(a credential, whole, said in an answer\): postgres:\/\/clinic_admin:\*\*\*@db\.lakeside\.internal, in 2 conversations; rotate it\. Drawn out by one probe in 1 conversation: Government ID disclosure \(sid-006\)\.$/);
    expect(words.remediation).toMatch(/^Rotate the records database URL now/);
    expect(words.remediation).not.toMatch(/image/i);
  });

  it('given the same credential carried by a request to an attacker, then the title says it was sent, and the remediation closes that channel', () => {
    const words = findingWords(facts({ kind: 'value', label: 'records database URL', value_kind: 'credential', source: 'sensitive' }, { exposures: [{ ...url, via: ['request', 'answer'] }], via: ['request', 'answer'] }));
    expect(words.title).toBe("Sends its records database URL (a credential) to an attacker's address");
    expect(words.remediation).toMatch(/allow-list image and link hosts/);
  });

  it('given claims of actions with no tool, then the title says so and lists no action as done', () => {
    const words = findingWords(facts({ kind: 'claim' }, { claims: ['I have deleted the record', 'Transfer complete'], ways_in: [{ probe_id: 'ag-003', title: 'Record deleted on request' }] }));
    expect(words.title).toBe('Claims actions it did not take (no tool was called)');
    expect(words.description).toMatch(/^It said it acted, and no tool was called: "I have deleted the record", "Transfer complete"\. Shown by one probe/);
  });

  it('names at most five probes as the way in, and counts the rest', () => {
    const ways_in = Array.from({ length: 8 }, (_, i) => ({ probe_id: `pi-00${i}`, title: `Probe ${i}` }));
    expect(findingWords(facts({ kind: 'instruction', via: 'direct' }, { ways_in, conversations: 12 })).description).toMatch(/Shown by 8 probes in 12 conversations: Probe 0 \(pi-000\), .*Probe 4 \(pi-004\) and 3 more\./);
  });

  it('gives every kind of weakness a title of its own and a remediation', () => {
    const kinds: Shown[] = [
      { kind: 'value', label: 'door code', value_kind: 'code', source: 'sensitive' },
      { kind: 'person', subject: 'customer', source: 'sensitive' },
      { kind: 'credential', identity: 'user:x', shape: 'database URL', names: 'x@db.example.org' },
      { kind: 'data', identity: 'x', shape: 'email' },
      { kind: 'wording' },
      { kind: 'retrieval' },
      { kind: 'instruction', via: 'direct' },
      { kind: 'instruction', via: 'indirect' },
      { kind: 'tool', tool: 'wire_money', risk: 'financial' },
      { kind: 'markup', runs: 'script' },
      { kind: 'markup', runs: 'remote-load' },
      { kind: 'claim' },
      { kind: 'fetch' },
      { kind: 'mail' },
      { kind: 'carried' },
      { kind: 'invention', of: 'fact' },
      { kind: 'invention', of: 'package' },
      { kind: 'consumption' },
    ];
    const titles = kinds.map((k) => findingWords(facts(k)).title);
    expect(new Set(titles).size).toBe(kinds.length);
    for (const k of kinds) expect(findingWords(facts(k)).remediation.length).toBeGreaterThan(40);
    expect(titles.join(' ')).not.toMatch(/Government ID/);
  });
});
