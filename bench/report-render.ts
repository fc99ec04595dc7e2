/**
 * Report rendering figures: each format for one scan with 1,000 findings carrying 10,000 variants
 * (and 3,000 attempts), plus building the report model from the scan's event history, the target's
 * triage decisions and the previous scan it is compared with, and the hash chain over the history.
 *
 *   npm run build && node dist/bench/report-render.js [findings] [variants per finding]
 *
 * Aims: pdf under 1 s, every other format under 100 ms. Each figure is the median of several
 * runs after one warm-up (the first run pays for JIT compilation and font loading).
 */
import { cpus, loadavg } from 'node:os';
import type { TriageDecision } from '@gauntlet/domain';
import { performance } from 'node:perf_hooks';
import { buildScanReport, chainDigest } from '@gauntlet/assessment';
import { REPORT_FORMATS, renderReport } from '@gauntlet/reports';
import { sampleHistory } from '../libs/assessment/testing/sample-history';

const FINDINGS = Number(process.argv[2] ?? 1000);
const VARIANTS = Number(process.argv[3] ?? 10);
const RUNS = { pdf: 5, other: 15 };
const AIM_MS: Record<string, number> = { pdf: 1000, json: 100, csv: 100, markdown: 100, html: 100, 'report model': 100, 'chain digest': 100 };

async function time(fn: () => unknown, runs: number): Promise<{ median: number; first: number }> {
  const t0 = performance.now();
  await fn();
  const first = performance.now() - t0;
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], first };
}

async function main(): Promise<void> {
  const history = sampleHistory({ seed: 1, findings: FINDINGS, attempts: FINDINGS * 3, variantsPerFinding: VARIANTS });
  const plain = buildScanReport(history, { baseUrl: 'https://gauntlet.example', generatedAt: new Date().toISOString() });
  // a tenth of the findings triaged, half of them present in the previous scan: the report shows both
  const triage: TriageDecision[] = plain.vulnerabilities.filter((_, i) => i % 10 === 0).map((v, i) => ({
    fingerprint: v.fingerprint, state: (['false_positive', 'accepted_risk', 'fixed'] as const)[i % 3], reason: 'reviewed', by: 'account:bench',
    at: '2026-11-19T00:00:00.000Z', expires_at: null, scan_id: 'earlier', vulnerability_id: v.id,
  }));
  const base = {
    scan_id: 'previous-scan', finished_at: '2026-11-19T00:00:00.000Z', security_score: 40, security_grade: 'F',
    findings: plain.vulnerabilities.filter((_, i) => i % 2 === 0).map((v) => ({ fingerprint: v.fingerprint, probe_id: v.probe_id, title: v.title, severity: v.severity, category: v.category })),
  };
  const ctx = { baseUrl: 'https://gauntlet.example', generatedAt: new Date().toISOString(), target: { url: 'https://bot.example/chat', scan_mode: 'browser' }, triage, base };
  const report = buildScanReport(history, ctx);
  const variants = report.vulnerabilities.reduce((n, v) => n + v.variants.length, 0);

  console.log(`command: node dist/bench/report-render.js ${FINDINGS} ${VARIANTS}`);
  console.log(`machine: node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown cpu'}), load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`scan: ${report.vulnerabilities.length} findings, ${variants} variants, ${report.attempts.total} attempts, ${history.length} events; ${triage.length} triaged, ${report.changes!.new.length} new since the previous scan`);
  console.log('');
  console.log('what            median ms   first run ms   output        aim');

  const line = (what: string, r: { median: number; first: number }, size: string) => {
    const aim = AIM_MS[what];
    const verdict = r.median <= aim ? `< ${aim} ms ok` : `> ${aim} ms MISSED`;
    console.log(`${what.padEnd(15)} ${r.median.toFixed(1).padStart(9)}   ${r.first.toFixed(1).padStart(12)}   ${size.padEnd(12)}  ${verdict}`);
  };

  line('report model', await time(() => buildScanReport(history, ctx), RUNS.other), '-');
  line('chain digest', await time(() => chainDigest(history), RUNS.other), '-');
  for (const format of REPORT_FORMATS) {
    let bytes = 0;
    let pages = '';
    const r = await time(async () => {
      const out = await renderReport(format, report);
      bytes = out.body.length;
      if (format === 'pdf') pages = ` ${(out.body.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length} p`;
    }, format === 'pdf' ? RUNS.pdf : RUNS.other);
    line(format, r, `${(bytes / 1024).toFixed(0)} KiB${pages}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
