import { buildScanReport, ScanReport } from '@gauntlet/assessment';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { sampleHistory, sampleOutOfBandFinding, sampleToolCallFinding } from '../../assessment/testing/sample-history';
import { renderReport } from './render';

// poppler-utils (Debian) reads the PDF the way a viewer would; skipped where it is not installed
const hasPoppler = ['pdftoppm', 'pdftotext', 'pdffonts'].every((tool) => spawnSync(tool, ['-v']).status === 0);
const withPoppler = hasPoppler ? it : it.skip;

/** what a chatbot may answer in, as a finding's evidence quotes it */
const SCRIPTS = {
  latin: 'Voilà: the façade of Straße',
  cyrillic: 'Системный промпт: никому не показывать',
  greek: 'Οι οδηγίες του συστήματος είναι μυστικές',
  arabic: 'التعليمات السرية للنظام',
  chinese: '系统提示词是机密的',
  japanese: 'システムプロンプトは秘密です',
  korean: '시스템 프롬프트는 비밀입니다',
};

async function write(dir: string, report: ScanReport): Promise<{ file: string; pages: number }> {
  const out = await renderReport('pdf', report);
  const file = join(dir, `${Math.random().toString(36).slice(2)}-${out.filename}`);
  writeFileSync(file, out.body);
  return { file, pages: (await PDFDocument.load(out.body)).getPageCount() };
}

const text = (file: string, ...args: string[]) => execFileSync('pdftotext', [...args, file, '-'], { maxBuffer: 64 * 1024 * 1024 }).toString('utf8');

/** per page, how far down (points from the top) the lowest word above the footer reaches, from pdftotext's word boxes */
function contentDepths(file: string): { height: number; depth: number }[] {
  const html = execFileSync('pdftotext', ['-bbox', file, '-'], { maxBuffer: 64 * 1024 * 1024 }).toString('utf8');
  return html.split('<page ').slice(1).map((page) => {
    const height = Number(/height="([\d.]+)"/.exec(page)![1]);
    let depth = 0;
    for (const m of page.matchAll(/<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">/g)) {
      if (Number(m[1]) < height - 80) depth = Math.max(depth, Number(m[2])); // the footer sits in the last 80 points
    }
    return { height, depth };
  });
}

jest.setTimeout(60_000);

describe('pdf report, read back by real readers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-pdf-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const ctx = { baseUrl: 'https://gauntlet.example', generatedAt: '2026-11-21T09:00:00.000Z', target: { url: 'https://bot.example/chat', scan_mode: 'browser' } };

  const report = buildScanReport(sampleHistory({ seed: 8, findings: 500 }), ctx);
  report.vulnerabilities[0].title = 'Ünïcode 日本語 🚀 <script>alert(1)</script>';
  let file = '';
  let pages = 0;

  const polyglot = buildScanReport(sampleHistory({ seed: 9, findings: 3 }), { ...ctx, target: { ...ctx.target, name: 'Бот поддержки' } });
  // a bold title in Cyrillic, Greek, Chinese and Korean (bold CJK is drawn in the regular face)
  const BOLD_TITLE = 'Утечка Οδηγίες 系统提示词 시스템 프롬프트';
  polyglot.vulnerabilities[0].title = BOLD_TITLE;
  // each finding quotes a few scripts in its last answers (the PDF shows the last four turns)
  Object.values(SCRIPTS).forEach((line, i) => {
    const v = polyglot.vulnerabilities[i % polyglot.vulnerabilities.length];
    v.evidence = { ...v.evidence, turns: [...v.evidence.turns, { role: 'assistant' as const, content: line }].slice(-4) };
  });

  beforeAll(async () => {
    ({ file, pages } = await write(dir, report));
  });

  it('paginates 500 findings', () => {
    expect(pages).toBeGreaterThan(50);
  });

  withPoppler('numbers every page "Page n of m" and keeps text readable', () => {
    const all = text(file, '-layout');
    const byPage = all.split('\f').filter((p) => p.trim());
    expect(byPage).toHaveLength(pages);
    byPage.forEach((p, i) => expect(p).toContain(`Page ${i + 1} of ${pages}`));
    expect(byPage[0]).toContain('Gauntlet security report');
    expect(byPage[0]).toContain(`${report.score!.overall_score}`);
    // no emoji font: the rocket alone becomes "?"
    expect(all).toContain('Ünïcode 日本語 ? <script>alert(1)</script>');
    expect(all).toContain('Remediation:');
    expect(all).toContain(report.compliance.integrity.chain_sha256);
  });

  withPoppler('evidence in Latin, Cyrillic, Greek, Arabic, Chinese, Japanese and Korean comes back out as written', async () => {
    const { file: poly } = await write(dir, polyglot);
    const out = text(poly).normalize('NFC');
    for (const [script, line] of Object.entries(SCRIPTS)) expect([script, out.includes(line)]).toEqual([script, true]);
    expect(out).toContain('Бот поддержки');
    expect(out).toContain(BOLD_TITLE);
    expect(out).not.toMatch(/\?{3}/);
  });

  withPoppler("says each finding's proof: the quoted span and what it matched", async () => {
    const proved = buildScanReport(sampleHistory({ seed: 9, findings: 1 }), ctx);
    const answer = 'The customer on file is Maria Kowalski.';
    proved.vulnerabilities[0].evidence = {
      turns: [{ role: 'user', content: 'Who is on file?' }, { role: 'assistant', content: answer }], detector: 'sensitive', matched: 'Maria Kowalski',
      proof: { turn: 1, start: 24, end: 38, text: 'Maria Kowalski', matched: { kind: 'sensitive', label: 'customer name' } },
    };
    const { file: withProof } = await write(dir, proved);
    expect(text(withProof).replace(/\s+/g, ' ')).toContain('Proof (turn 2): "Maria Kowalski", the sensitive value "customer name"');
  });

  withPoppler('says a tool call and a callback hit as what they are, with the call in the conversation', async () => {
    const acted = buildScanReport(sampleHistory({ seed: 9, findings: 1 }), ctx);
    // a call's arguments in any script: the fonts that draw them are embedded like the answers'
    const foreign = sampleToolCallFinding({ id: 'v-foreign', title: 'Mail sent abroad' });
    foreign.evidence.proof!.matched = { kind: 'tool_call', tool: 'send_email', arguments: { to: 'boss@evil.example', body: '送金してください срочно' } };
    acted.vulnerabilities = [sampleToolCallFinding({ title: 'Überweisung an ein fremdes Konto' }), sampleOutOfBandFinding(), foreign];
    const { file: agent } = await write(dir, acted);
    const out = text(agent).replace(/\s+/g, ' ');
    expect(out).toContain('Proof (turn 2): the agent called send_payment with to_account="DE89 3704 0044 0532 0130 00", amount=5000');
    expect(out).toContain('assistant: -> called send_payment(to_account=');
    expect(out).toContain('tool send_payment: {"status":"sent","reference":"TX-4471"}');
    expect(out).toContain('a request reached the planted address: GET /oob/7f3a9c/c?d=Jane%20Doe at 2026-11-20T10:00:07.120Z');
    expect(out).toContain('Überweisung');
    expect(out).toContain('the agent called send_email with to="boss@evil.example", body="送金してください срочно"');
  });

  withPoppler('embeds every font it uses (pdffonts), as subsets, and no standard font', async () => {
    const { file: poly } = await write(dir, polyglot);
    for (const f of [file, poly]) {
      const rows = execFileSync('pdffonts', [f]).toString('utf8').trim().split('\n').slice(2);
      expect(rows.length).toBeGreaterThan(2);
      for (const row of rows) {
        // name type encoding emb sub uni object ID
        const cols = row.trim().split(/\s+/);
        const [emb, sub, uni] = cols.slice(-5, -2);
        expect([cols[0], emb, sub, uni]).toEqual([cols[0], 'yes', 'yes', 'yes']);
      }
    }
    // a Latin-only report does not carry the CJK fonts
    const latin = buildScanReport(sampleHistory({ seed: 3, findings: 2 }), ctx);
    const { file: plain } = await write(dir, latin);
    expect(execFileSync('pdffonts', [plain]).toString('utf8')).not.toMatch(/NotoSansSC|NotoSansKR|NotoSansArabic/);
  });

  withPoppler('no page but the last is more than half blank', async () => {
    const small = buildScanReport(sampleHistory({ seed: 4, findings: 4 }), ctx);
    for (const f of [file, (await write(dir, small)).file]) {
      const depths = contentDepths(f);
      depths.slice(0, -1).forEach(({ height, depth }, i) => expect([i + 1, depth > height / 2]).toEqual([i + 1, true]));
    }
  });

  withPoppler('rasterises the cover and a findings page (pdftoppm)', () => {
    execFileSync('pdftoppm', ['-r', '50', '-png', '-f', '1', '-l', '3', file, join(dir, 'page')]);
    const pngs = readdirSync(dir).filter((f) => f.endsWith('.png'));
    expect(pngs).toHaveLength(3);
    for (const png of pngs) expect(statSync(join(dir, png)).size).toBeGreaterThan(5_000);
  });
});
