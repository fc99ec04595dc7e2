import { diffBase, diffFindings } from './diff';

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

  it('sorts findings into new and still open, and the base’s missing fingerprints into fixed', () => {
    const changes = diffFindings([f('v1', 'a'), f('v2', 'b')], { id: 'base', findings: [b('b'), b('c')] }, new Set(['pa', 'pb', 'pc']));
    expect(changes).toEqual({ base_scan_id: 'base', new: ['v1'], still_open: ['v2'], fixed: ['c'], not_retested: [] });
  });

  it('a weakness this scan did not try again is not called fixed', () => {
    const changes = diffFindings([], { id: 'base', findings: [b('c'), b('d')] }, new Set(['pc']));
    expect(changes).toMatchObject({ fixed: ['c'], not_retested: ['d'] });
  });

  it('without a base every finding is new', () => {
    expect(diffFindings([f('v1', 'a')], null)).toEqual({ base_scan_id: null, new: ['v1'], still_open: [], fixed: [], not_retested: [] });
  });
});
