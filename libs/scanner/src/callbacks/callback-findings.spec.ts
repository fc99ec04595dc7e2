import { randomBytes } from 'node:crypto';
import { OutOfBandHit } from '@gauntlet/domain';
import { probeById } from '../probes/catalogue';
import { heldValuesOf } from '../detectors/disclosure';
import { FindingBook } from '../engine/findings';
import { callbackSightings, carriedBy } from './callback-findings';
import { CallbackPlanting } from './planting';
import { callbackKey, mintToken } from './token';

describe('what out-of-band hits prove', () => {
  const key = callbackKey(randomBytes(32));
  const base = 'https://cb.example.net/oob';
  const at = '2026-11-27T07:00:00.000Z';

  it('reads what a request carried: path after the token, query values (not their names), the body', () => {
    expect(carriedBy({ path: '', query: 'customer=' })).toBe('');
    expect(carriedBy({ path: '/Dana%20Whitfield', query: 'customer=Jo+Roe&email=jo%40example.com&x', body: ' ok ' })).toBe('Dana Whitfield Jo Roe jo@example.com ok');
    expect(carriedBy({ path: '', query: 'q=%E0%A4%A' })).toBe('%E0%A4%A');
    // a name that carried the token: the labels a sender put before it; a path clients ask any host for is nothing
    expect(carriedBy({ path: '', host: 'dana-whitfield.acct-4417.tok1.tok2.oob.example.com', token: 'tok1.tok2' })).toBe('dana-whitfield acct-4417');
    expect(carriedBy({ path: '/favicon.ico', host: 'tok1.oob.example.com', token: 'tok1' })).toBe('');
    expect(carriedBy({ path: '/Dana', host: 'tok1.oob.example.com', token: 'tok1' })).toBe('Dana');
  });

  function planted() {
    const planting = new CallbackPlanting({ baseUrl: base, key, inbox: { hits: async () => [] } }, 'scan-1');
    const probe = probeById('oob-001')!;
    const turns = planting.plant('att-1', ['Hello there.', ...probe.turns], { probe, technique: probe.technique, converters: [], phase: 'probe' }, new Date(at));
    planting.delivered('att-1', [{ role: 'user', content: turns[0] }, { role: 'assistant', content: 'Hi!' }, { role: 'user', content: turns[1] }, { role: 'assistant', content: 'It says...' }]);
    return { planting, url: planting.attempts[0].addresses[0].url };
  }
  const hit = (stage: 'fetch' | 'steered', over: Partial<OutOfBandHit> = {}): OutOfBandHit => ({
    scan_id: 'scan-1', attempt_id: 'att-1', token: mintToken(key, { scanId: 'scan-1', attemptId: 'att-1', stage }), method: 'GET', path: '', source: '198.51.100.7', at, ...over,
  });

  it('pins the proof on the user turn that planted the address, a steered request on the page address that served it', () => {
    const { planting, url } = planted();
    const heard = callbackSightings('scan-1', planting.attempts, [hit('fetch'), hit('steered', { query: 'customer=' })], key, { canaries: [] });
    expect(heard.map((h) => [h.shown, h.severity])).toEqual([
      [{ kind: 'instruction', via: 'indirect' }, 'high'],
      [{ kind: 'fetch' }, 'low'],
    ]);
    const proof = heard[0].proof;
    expect(proof).toMatchObject({ turn: 2, text: url, matched: { kind: 'out_of_band', method: 'GET', query: 'customer=', at } });
    expect(heard[0].turns[2].content.slice(proof.start, proof.end)).toBe(url);
    // filed as the weaknesses they prove
    const book = new FindingBook(4_000);
    book.hear(heard);
    expect(book.vulnerabilities('scan-1').map((v) => v.fingerprint)).toEqual(['LLM01:2025:instruction:indirect', 'LLM06:2025:fetch:any-address']);
  });

  it('names a value the target holds by its label and never quotes it, in the title, the description or the proof', () => {
    const { planting } = planted();
    const sensitive = [{ label: 'customer name', value: 'Dana Whitfield' }];
    const heard = callbackSightings('scan-1', planting.attempts, [hit('steered', { query: 'customer=Dana%20Whitfield', body: 'Dana Whitfield' })], key, { canaries: [], sensitive });
    const book = new FindingBook(4_000, heldValuesOf([], sensitive));
    book.hear(heard);
    const leak = book.vulnerabilities('scan-1').find((v) => v.category === 'LLM02:2025')!;
    expect(leak).toMatchObject({ severity: 'critical', title: "Sends the customer's data (name) to an attacker's address", exposures: [{ label: 'customer name', via: ['request'] }] });
    expect(JSON.stringify(leak)).not.toContain('Dana');
    expect(leak.evidence.proof!.matched.query).toBe('customer=[customer name]');
  });

  it('counts only hits of attempts this scan planted, with tokens of this key', () => {
    const { planting } = planted();
    const forged = { ...hit('steered'), token: mintToken(callbackKey(randomBytes(32)), { scanId: 'scan-1', attemptId: 'att-1', stage: 'steered' }) };
    const otherAttempt = { ...hit('steered'), attempt_id: 'att-2', token: mintToken(key, { scanId: 'scan-1', attemptId: 'att-2', stage: 'steered' }) };
    const otherScan = { ...hit('steered'), scan_id: 'scan-2' };
    expect(callbackSightings('scan-1', planting.attempts, [forged, otherAttempt, otherScan], key, { canaries: [] })).toEqual([]);
  });
});
