import canonicalize from 'canonicalize';
import { createHash } from 'node:crypto';
import { sampleHistory } from '../testing/sample-history';
import { canonicalEvent, CHAIN_GENESIS, chainDigest, chainLinks, ChainEvent, toAuditNdjson, verifyChain } from './integrity';

const history = sampleHistory({ seed: 3, findings: 4, attempts: 12 });
const lines = () => toAuditNdjson(history).trimEnd().split('\n');

describe('hash chain', () => {
  it('canonicalises with sorted keys and no whitespace (RFC 8785)', () => {
    const e: ChainEvent = { type: 'T', streamId: 's', revision: 0, data: { b: 1, a: [true, null, 'é'], c: { z: 1e21, y: 0.5 } }, metadata: { b: 2, a: 1 }, recordedAt: 'x' };
    expect(canonicalEvent(e)).toBe('{"data":{"a":[true,null,"é"],"b":1,"c":{"y":0.5,"z":1e+21}},"metadata":{"a":1,"b":2},"recordedAt":"x","revision":0,"streamId":"s","type":"T"}');
  });

  it('writes what the canonicalize package writes, for plain JSON and for everything it falls back on', () => {
    const event = (data: unknown): ChainEvent => ({ type: 'T', streamId: 's', revision: 1, data, metadata: { b: 1, A: 2, é: 3, '': 4 }, recordedAt: 'x' });
    const shapes: unknown[] = [
      { z: [1, { y: 'é\u2028"\\', x: -0 }], a: null, B: true, '\ud83d\ude00': 1.5e-7, 'é': 1e21 },
      { 10: 'a', 9: 'b', x: { 2: 1, 1: 2 } }, // array-index keys, enumerated numerically by V8
      { at: new Date(0) },
      { skipped: undefined, kept: 1 },
      { list: [undefined, () => 1] },
      [],
      'text',
    ];
    for (const data of shapes) expect(canonicalEvent(event(data))).toBe(canonicalize({ data, metadata: event(data).metadata, recordedAt: 'x', revision: 1, streamId: 's', type: 'T' }));
    for (const history of [sampleHistory({ seed: 9, findings: 6, attempts: 20, variantsPerFinding: 3 })]) {
      for (const e of history) expect(canonicalEvent(e)).toBe(canonicalize({ streamId: e.streamId, revision: e.revision, type: e.type, data: e.data ?? null, metadata: e.metadata ?? {}, recordedAt: e.recordedAt }));
    }
    expect(() => canonicalEvent(event({ n: Number.NaN }))).toThrow();
  });

  it('links each event to the previous link: link_n = sha256(link_{n-1} + canonical(event_n))', () => {
    const links = chainLinks(history);
    expect(links).toHaveLength(history.length);
    const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
    expect(links[0]).toBe(sha(CHAIN_GENESIS + canonicalEvent(history[0])));
    expect(links[5]).toBe(sha(links[4] + canonicalEvent(history[5])));
    expect(chainDigest(history)).toBe(links.at(-1));
    expect(chainDigest([])).toBe(CHAIN_GENESIS);
  });

  it('does not depend on key order or on fields the store adds', () => {
    const shuffled = history.map((e) => ({ recordedAt: e.recordedAt, metadata: e.metadata, data: e.data, type: e.type, revision: e.revision, streamId: e.streamId, position: 123n } as ChainEvent));
    expect(chainDigest(shuffled)).toBe(chainDigest(history));
  });

  it('exports one NDJSON line per event carrying its link, and verifies it', () => {
    const out = lines();
    expect(out).toHaveLength(history.length);
    const first = JSON.parse(out[0]);
    expect(Object.keys(first).sort()).toEqual(['chain_sha256', 'data', 'metadata', 'recordedAt', 'revision', 'streamId', 'type']);
    expect(verifyChain(toAuditNdjson(history))).toEqual({ ok: true, event_count: history.length, chain_sha256: chainDigest(history) });
    expect(verifyChain(out, { event_count: history.length, chain_sha256: chainDigest(history) }).ok).toBe(true);
  });

  it('fails at the tampered line when one event\'s data changes', () => {
    const out = lines();
    const l = JSON.parse(out[7]);
    l.data.attempt.verdict.outcome = 'resisted';
    out[7] = JSON.stringify(l);
    expect(verifyChain(out)).toMatchObject({ ok: false, index: 7 });
  });

  it('fails when the tamperer also recomputes that line\'s link (the next line breaks)', () => {
    const out = lines();
    const l = JSON.parse(out[7]);
    l.metadata.actor = 'someone-else';
    l.chain_sha256 = createHash('sha256').update(JSON.parse(out[6]).chain_sha256 + canonicalEvent(l), 'utf8').digest('hex');
    out[7] = JSON.stringify(l);
    expect(verifyChain(out)).toMatchObject({ ok: false, index: 8 });
  });

  it('fails at the first moved line when two lines are swapped', () => {
    const out = lines();
    [out[3], out[9]] = [out[9], out[3]];
    expect(verifyChain(out)).toMatchObject({ ok: false, index: 3 });
  });

  it('fails at the gap when a line is dropped', () => {
    const out = lines();
    out.splice(5, 1);
    expect(verifyChain(out)).toMatchObject({ ok: false, index: 5 });
  });

  it('fails when the last line is dropped, given the expected digest or count', () => {
    const out = lines().slice(0, -1);
    expect(verifyChain(out).ok).toBe(true); // a prefix is a valid chain on its own
    expect(verifyChain(out, { chain_sha256: chainDigest(history) })).toMatchObject({ ok: false, index: history.length - 1 });
    expect(verifyChain(out, { event_count: history.length })).toMatchObject({ ok: false, index: history.length - 1 });
  });

  it('reports a line that is not JSON', () => {
    const out = lines();
    out[2] = '{oops';
    expect(verifyChain(out)).toMatchObject({ ok: false, index: 2, reason: 'not valid JSON' });
  });
});
