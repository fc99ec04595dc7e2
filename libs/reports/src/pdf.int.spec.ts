import { buildScanReport } from '@gauntlet/assessment';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { sampleHistory } from '../../assessment/testing/sample-history';
import { renderReport } from './render';

// poppler-utils (Debian) reads the PDF the way a viewer would; skipped where it is not installed
const hasPoppler = spawnSync('pdftoppm', ['-v']).status === 0 && spawnSync('pdftotext', ['-v']).status === 0;
const withPoppler = hasPoppler ? it : it.skip;

describe('pdf report, read back by real readers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-pdf-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const report = buildScanReport(sampleHistory({ seed: 8, findings: 500 }), {
    baseUrl: 'https://gauntlet.example', generatedAt: '2026-11-21T09:00:00.000Z', target: { url: 'https://bot.example/chat', scan_mode: 'browser' },
  });
  report.vulnerabilities[0].title = 'Ünïcode 日本語 🚀 <script>alert(1)</script>';
  let file = '';
  let pages = 0;

  beforeAll(async () => {
    const out = await renderReport('pdf', report);
    file = join(dir, out.filename);
    writeFileSync(file, out.body);
    pages = (await PDFDocument.load(out.body)).getPageCount();
  });

  it('paginates 500 findings', () => {
    expect(pages).toBeGreaterThan(50);
  });

  withPoppler('numbers every page "Page n of m" and keeps sanitised text readable', () => {
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { maxBuffer: 64 * 1024 * 1024 }).toString('utf8');
    const byPage = text.split('\f').filter((p) => p.trim());
    expect(byPage).toHaveLength(pages);
    byPage.forEach((p, i) => expect(p).toContain(`Page ${i + 1} of ${pages}`));
    expect(byPage[0]).toContain('Gauntlet security report');
    expect(byPage[0]).toContain(`${report.score!.overall_score}`);
    expect(text).toContain('Ünïcode ??? ? <script>alert(1)</script>');
    expect(text).toContain('Remediation:');
    expect(byPage.at(-1)).toContain(report.compliance.integrity.chain_sha256);
  });

  withPoppler('rasterises the cover and a findings page (pdftoppm)', () => {
    execFileSync('pdftoppm', ['-r', '50', '-png', '-f', '1', '-l', '3', file, join(dir, 'page')]);
    const pngs = readdirSync(dir).filter((f) => f.endsWith('.png'));
    expect(pngs).toHaveLength(3);
    for (const png of pngs) expect(statSync(join(dir, png)).size).toBeGreaterThan(5_000);
  });
});
