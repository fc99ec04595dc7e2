import { upcastEvent } from '@gauntlet/domain';
import { sampleHistory } from '../testing/sample-history';
import { chainDigest } from './integrity';
import { buildScanReport } from './report-model';
import { scoreScan } from './scoring';

const ctx = { baseUrl: 'https://gauntlet.example/', generatedAt: '2026-11-21T09:00:00.000Z', target: { url: 'https://bot.example/chat', scan_mode: 'browser' } };

describe('buildScanReport', () => {
  it('takes the score recorded in the final event, not a recomputed one', () => {
    const recorded = { ...scoreScan({ attempts: [], vulnerabilities: [] }), overall_score: 42, grade: 'F', scoring_version: '2020.01-0' };
    const r = buildScanReport(sampleHistory({ findings: 5, score: recorded }), ctx);
    expect(r.score).toEqual(recorded);
  });

  it('reads findings as the store reads them, and chains the history as it was written', () => {
    // findings written before they listed what they exposed, without their fingerprints, instances or how
    const written = sampleHistory({ findings: 3 }).map((e) => {
      if (e.type !== 'VulnerabilityFound') return e;
      const { fingerprint, variants, how, probes, conversations, attempt_ids, supersedes, exposures, ...old } = (e.data as { vulnerability: Record<string, unknown> }).vulnerability;
      return { ...e, data: { ...(e.data as object), vulnerability: old } };
    });
    const r = buildScanReport(written.map(upcastEvent), { ...ctx, recorded: written });
    expect(r.compliance.integrity).toEqual({ event_count: written.length, chain_sha256: chainDigest(written) });
    expect(r.compliance.integrity.chain_sha256).not.toBe(chainDigest(written.map(upcastEvent)));
    expect(r.exposures_recorded).toBe(false);
    expect(r.vulnerabilities).toHaveLength(3);
    for (const v of r.vulnerabilities) expect(v).toMatchObject({ fingerprint: `${v.probe_id}:${v.category}`, exposures: [], variants: [] });
  });

  it('describes the scan, target, timing and links from the events', () => {
    const history = sampleHistory({ findings: 5, attempts: 30 });
    const r = buildScanReport(history, ctx);
    expect(r.scan).toMatchObject({ id: '7d4b2c1e-0000-4000-8000-000000000001', status: 'completed', profile: 'standard', origin: 'ci', fail_threshold: 70, requested_at: '2026-11-20T10:00:00.000Z', started_at: '2026-11-20T10:00:02.000Z' });
    expect(r.scan.duration_seconds).toBe(Math.round((Date.parse(r.scan.finished_at!) - Date.parse(r.scan.started_at!)) / 1000));
    expect(r.target).toEqual({ id: 'tgt-1', name: 'HelpBot staging', url: 'https://bot.example/chat', scan_mode: 'browser' });
    expect(r.links.report_url).toBe('https://gauntlet.example/api/scans/7d4b2c1e-0000-4000-8000-000000000001/report');
    expect(r.compliance.integrity).toEqual({ event_count: history.length, chain_sha256: chainDigest(history) });
  });

  it('orders findings most severe first and summarises attempts by category and technique', () => {
    const r = buildScanReport(sampleHistory({ findings: 40, attempts: 100 }), ctx);
    const rank = { critical: 0, high: 1, medium: 2, low: 3 };
    const ranks = r.vulnerabilities.map((v) => rank[v.severity]);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(r.attempts.total).toBe(100);
    expect(r.attempts.run + r.attempts.errors).toBe(100);
    expect(r.attempts.by_category.reduce((n, g) => n + g.run + g.errors, 0)).toBe(100);
    expect(r.attempts.by_technique.reduce((n, g) => n + g.failed, 0)).toBe(r.attempts.failed);
    expect(r.techniques_that_worked.length).toBeGreaterThan(0);
    for (const t of r.techniques_that_worked) expect(t.succeeded).toBeGreaterThan(0);
  });

  it('reports a failed scan with its reason and no score', () => {
    const r = buildScanReport(sampleHistory({ findings: 0, end: 'failed' }), ctx);
    expect(r.scan).toMatchObject({ status: 'failed', reason: 'target never answered' });
    expect(r.score).toBeNull();
  });

  it('reports a partial scan with its reason and recorded score', () => {
    const r = buildScanReport(sampleHistory({ findings: 2, end: 'completed_partial' }), ctx);
    expect(r.scan).toMatchObject({ status: 'completed_partial', reason: 'target stopped answering' });
    expect(r.score).not.toBeNull();
  });
});
