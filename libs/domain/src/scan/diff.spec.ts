import { diffBase, diffFindings, findingHistory } from './diff';

describe('the base of a scan diff', () => {
  const scan = (id: string, status: string, created_at: string) => ({ id, status, created_at });
  const current = scan('s3', 'completed', '2026-11-21T12:00:00.000Z');

  it('is the latest earlier scan of the target that finished with results', () => {
    const earlier = [
      scan('s1', 'completed', '2026-11-20T00:00:00.000Z'),
      scan('s2', 'completed_partial', '2026-11-21T00:00:00.000Z'),
      scan('s2b', 'failed', '2026-11-21T06:00:00.000Z'),
      scan('s2c', 'cancelled', '2026-11-21T07:00:00.000Z'),
      scan('s4', 'completed', '2026-11-22T00:00:00.000Z'),
      current,
    ];
    expect(diffBase(current, earlier)?.id).toBe('s2');
  });

  it('is null for the first scan of a target', () => {
    expect(diffBase(current, [current, scan('s0', 'running', '2026-11-20T00:00:00.000Z')])).toBeNull();
  });
});

describe('finding changes', () => {
  const f = (id: string, fingerprint: string) => ({ id, fingerprint });
  const b = (fingerprint: string) => ({ fingerprint, probe_id: `p${fingerprint}` });

  it('sorts findings into new and still open, and what the base had and this scan retested without finding into not reproduced', () => {
    const changes = diffFindings([f('v1', 'a'), f('v2', 'b')], { id: 'base', findings: [b('b'), b('c')] }, new Set(['pa', 'pb', 'pc']));
    expect(changes).toEqual({ base_scan_id: 'base', new: ['v1'], still_open: ['v2'], fixed: [], not_reproduced: ['c'], not_retested: [] });
  });

  it('a weakness this scan did not try again is neither fixed nor not reproduced', () => {
    const changes = diffFindings([], { id: 'base', findings: [b('c'), b('d')] }, new Set(['pc']));
    expect(changes).toMatchObject({ not_reproduced: ['c'], not_retested: ['d'] });
  });

  it('without a base every finding is new', () => {
    expect(diffFindings([f('v1', 'a')], null)).toEqual({ base_scan_id: null, new: ['v1'], still_open: [], fixed: [], not_reproduced: [], not_retested: [] });
  });
});

describe('finding changes against the target history', () => {
  const fp = (probe: string) => `${probe}:LLM01:2025`;
  const finding = (probe: string) => ({ id: `v-${probe}`, fingerprint: fp(probe) });
  const scanOf = (id: string, probes: string[]) => ({ id, findings: probes.map((p) => ({ fingerprint: fp(p), probe_id: p })) });
  const tested = new Set(['p1', 'p2', 'p3']);

  it('given a weakness seen in three scans and missed by the fourth, when the fifth finds it again, then it is still open, not new', () => {
    const history = findingHistory([{ fingerprints: [fp('p1')] }, { fingerprints: [fp('p1'), fp('p2')] }, { fingerprints: [fp('p1'), fp('p2')] }]);
    const changes = diffFindings([finding('p1'), finding('p2')], scanOf('s4', ['p1']), tested, history);
    expect(changes).toMatchObject({ new: [], still_open: ['v-p1', 'v-p2'], fixed: [] });
  });

  it('given a weakness the previous scan had, when this scan retests it and misses it, then it is not reproduced: not fixed', () => {
    const history = findingHistory([{ fingerprints: [fp('p1'), fp('p2')] }, { fingerprints: [fp('p1'), fp('p2')] }]);
    const changes = diffFindings([finding('p1')], scanOf('s2', ['p1', 'p2']), tested, history);
    expect(changes).toMatchObject({ new: [], not_reproduced: [fp('p2')], fixed: [] });
  });

  it('given a weakness missing from the previous scan too, when this scan misses it again, then it is fixed', () => {
    const history = findingHistory([{ fingerprints: [fp('p1')] }, { fingerprints: [fp('p1'), fp('p2')] }]);
    const changes = diffFindings([finding('p1')], scanOf('s2', ['p1']), tested, history);
    expect(changes).toMatchObject({ fixed: [fp('p2')], not_reproduced: [] });
    // not retested this time: not called fixed
    expect(diffFindings([finding('p1')], scanOf('s2', ['p1']), new Set(['p1']), history).fixed).toEqual([]);
  });

  it('given a weakness never seen on the target, then it is new', () => {
    const history = findingHistory([{ fingerprints: [fp('p1')] }]);
    expect(diffFindings([finding('p1'), finding('p3')], scanOf('s1', ['p1']), tested, history).new).toEqual(['v-p3']);
  });

  it('given a weakness triaged fixed before this scan, when it is found again, then it is new again', () => {
    const history = findingHistory([{ fingerprints: [fp('p1')] }], new Set([fp('p1')]));
    expect(diffFindings([finding('p1')], scanOf('s1', ['p1']), tested, history)).toMatchObject({ new: ['v-p1'], still_open: [] });
  });
});

describe('finding changes across the change to one finding per weakness', () => {
  const tested = new Set(['sid-001', 'sid-006', 'spl-001', 'pi-001']);
  /** the base scan, recorded when a finding was a probe and a category */
  const before = { id: 'old', findings: ['sid-001', 'sid-006', 'spl-001'].map((p) => ({ fingerprint: `${p}:LLM02:2025`, probe_id: p })) };
  const weakness = { id: 'v1', fingerprint: 'LLM02:2025:person:h0123456789abcdef', supersedes: ['sid-001:LLM02:2025', 'sid-006:LLM02:2025', 'spl-001:LLM02:2025', 'spl-001:LLM07:2025'] };

  it('given a base recorded per probe, when this scan finds the weakness those findings were, then it is still open and none of them is gone', () => {
    const history = findingHistory([{ fingerprints: before.findings.map((f) => f.fingerprint) }]);
    expect(diffFindings([weakness], before, tested, history)).toEqual({ base_scan_id: 'old', new: [], still_open: ['v1'], fixed: [], not_reproduced: [], not_retested: [] });
  });

  it('given a base recorded per probe whose weakness this scan misses, then it is not reproduced, then fixed the scan after', () => {
    const history = findingHistory([{ fingerprints: [] }, { fingerprints: before.findings.map((f) => f.fingerprint) }]);
    expect(diffFindings([], before, tested, history).not_reproduced).toEqual(['sid-001:LLM02:2025', 'sid-006:LLM02:2025', 'spl-001:LLM02:2025']);
    expect(diffFindings([], { id: 'empty', findings: [] }, tested, history).fixed).toEqual(['sid-001:LLM02:2025', 'sid-006:LLM02:2025', 'spl-001:LLM02:2025']);
  });

  it('given a weakness the base had, when this scan finds it through other probes only, then it is the same: still open', () => {
    const base = { id: 'b', findings: [{ fingerprint: weakness.fingerprint, probe_id: 'sid-001', probes: ['sid-001', 'sid-006'] }] };
    const again = { id: 'v2', fingerprint: weakness.fingerprint, supersedes: ['pi-001:LLM02:2025'] };
    expect(diffFindings([again], base, tested)).toMatchObject({ new: [], still_open: ['v2'], not_reproduced: [] });
    // missed, and none of its probes sent again: not retested
    expect(diffFindings([], base, new Set(['pi-001']))).toMatchObject({ not_reproduced: [], not_retested: [weakness.fingerprint] });
  });
});
