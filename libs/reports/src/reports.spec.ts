import { buildScanReport, ScanReport } from '@gauntlet/assessment';
import { findingHistory } from '@gauntlet/domain';
import { parse as parseCsv } from 'csv-parse/sync';
import MarkdownIt from 'markdown-it';
import { parse as parseHtml } from 'parse5';
import { PDFDocument } from 'pdf-lib';
import { createHash } from 'node:crypto';
import { sampleHistory } from '../../assessment/testing/sample-history';
import { CSV_COLUMNS, neutraliseCell } from './formats/csv';
import { REPORT_CSP } from './formats/html';
import { mdFence, mdText } from './formats/markdown';
import { renderReport } from './render';

const ctx = { baseUrl: 'https://gauntlet.example', generatedAt: '2026-11-21T09:00:00.000Z', target: { url: 'https://bot.example/chat', scan_mode: 'browser' } };

/** A report whose target and findings quote hostile text, as a real attacked chatbot would. */
function hostileReport(findings = 6): ScanReport {
  const r = buildScanReport(sampleHistory({ seed: 9, findings }), ctx);
  r.target.name = 'Acme <b>bot</b> [click](javascript:alert(1))';
  r.vulnerabilities[0] = {
    ...r.vulnerabilities[0],
    title: '<script>alert("title")</script> **bold** # not a heading',
    description: '=HYPERLINK("http://evil.example","click"), "quoted", comma\nand a second line <img src=x onerror=alert(1)>',
    evidence: { turns: [{ role: 'assistant', content: '```\n</pre><script>alert("evidence")</script>\n````' }], detector: 'xss', matched: '<script>' },
    remediation: '+cmd|/C calc!A0',
  };
  r.vulnerabilities[1] = { ...r.vulnerabilities[1], title: '-2+3', description: '@SUM(A1:A2)', remediation: '\tTabbed' };
  return r;
}

describe('renderReport', () => {
  it.each([
    ['pdf', 'application/pdf', '.pdf'],
    ['json', 'application/json', '.json'],
    ['csv', 'text/csv; charset=utf-8', '.csv'],
    ['markdown', 'text/markdown; charset=utf-8', '.md'],
    ['html', 'text/html; charset=utf-8', '.html'],
  ] as const)('%s answers %s', async (format, type, ext) => {
    const out = await renderReport(format, hostileReport());
    expect(out.contentType).toBe(type);
    expect(out.filename).toBe(`gauntlet-scan-7d4b2c1e-0000-4000-8000-000000000001${ext}`);
    expect(out.body.length).toBeGreaterThan(100);
  }, 30_000); // a pdf embeds fonts: seconds on a busy 2-core machine

  it('refuses an unknown format', async () => {
    await expect(renderReport('docx' as any, hostileReport())).rejects.toThrow(RangeError);
  });

  it('json is the report model itself (findings without a proof have nothing added)', async () => {
    const r = hostileReport();
    expect(JSON.parse((await renderReport('json', r)).body.toString('utf8'))).toEqual(JSON.parse(JSON.stringify(r)));
  });

  it('json adds to each proof only what it shows in words, the model left as it was', async () => {
    const r = hostileReport();
    r.vulnerabilities[2].evidence.proof = { turn: 1, start: 0, end: 4, text: 'Sure', matched: { kind: 'obedience' } };
    const before = JSON.stringify(r);
    const out = JSON.parse((await renderReport('json', r)).body.toString('utf8'));
    expect(JSON.stringify(r)).toBe(before);
    expect(out.vulnerabilities[2].evidence.proof).toEqual({ ...r.vulnerabilities[2].evidence.proof, shows: 'the instruction it obeyed' });
    const { shows: _shows, ...rest } = out.vulnerabilities[2].evidence.proof;
    expect({ ...out, vulnerabilities: out.vulnerabilities.map((v: any, i: number) => (i === 2 ? { ...v, evidence: { ...v.evidence, proof: rest } } : v)) }).toEqual(JSON.parse(before));
  });
});

describe('csv', () => {
  it('keeps the columns spreadsheets already read, by name and in order (the proof columns derived from PROOF_FACTS among them): a new one is a change to a published contract, made here on purpose', () => {
    expect(CSV_COLUMNS).toEqual([
      'scan_id', 'target', 'finding_id', 'severity', 'category', 'category_name', 'title', 'probe_id', 'technique', 'converters',
      'how', 'variants', 'fingerprint', 'confidence', 'phase', 'found_at', 'description', 'detector', 'matched', 'read_as', 'evidence', 'remediation', 'references',
      'since_last_scan', 'triage_state', 'triage_reason', 'triage_by', 'triage_at', 'triage_expires_at',
      'scan_partial', 'scan_coverage',
      'proof',
      'proof_kind', 'proof_tool', 'proof_arguments', 'proof_request', 'proof_request_at',
      'probes', 'conversations', 'exposes', 'rotate',
    ]);
  });

  it('reads back with a CSV parser: one row per finding, text intact, formulas neutralised', async () => {
    const r = hostileReport();
    const rows: Record<string, string>[] = parseCsv((await renderReport('csv', r)).body, { columns: true, bom: false, relax_column_count: false });
    expect(rows).toHaveLength(r.vulnerabilities.length);
    expect(Object.keys(rows[0])).toEqual([...CSV_COLUMNS]);
    expect(rows[0].title).toBe('<script>alert("title")</script> **bold** # not a heading');
    expect(rows[0].description).toBe(`'=HYPERLINK("http://evil.example","click"), "quoted", comma\nand a second line <img src=x onerror=alert(1)>`);
    expect(rows[0].remediation).toBe("'+cmd|/C calc!A0");
    expect(rows[1].title).toBe("'-2+3");
    expect(rows[1].description).toBe("'@SUM(A1:A2)");
    expect(rows[1].remediation).toBe("'\tTabbed");
    for (const row of rows) for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('ends records with CRLF (RFC 4180)', async () => {
    const text = (await renderReport('csv', hostileReport())).body.toString('utf8');
    expect(text.startsWith('scan_id,target,finding_id')).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
  });

  it.each(['=1+1', '+1', '-1', '@A1', '\t=1', '\r=1'])('neutralises %j', (v) => expect(neutraliseCell(v)).toBe(`'${v}`));
});

describe('markdown', () => {
  it('escapes only what would be markup, so the text reads as plain text', () => {
    expect(mdText('<script>[x](y) *a* _b_ `c` # |')).toBe('\\<script\\>\\[x\\](y) \\*a\\* \\_b\\_ \\`c\\` # \\|');
    expect(mdText('line\nbreak')).toBe('line break');
    // addresses, dates, versions, snake_case and sentences stay as they are
    for (const plain of ['127.0.0.1', '2026-11-26T10:00:00.000Z', 'pi-001:LLM01:2025', 'probe.role_play', 'scoring version 2026.1', 'It refused (politely), then complied!', 'a + b = c']) {
      expect(mdText(plain)).toBe(plain);
    }
    // where a block could begin, its marker is escaped
    expect(mdText('# heading')).toBe('\\# heading');
    expect(mdText('- item')).toBe('\\- item');
    expect(mdText('1. item')).toBe('1\\. item');
    expect(mdText('http://evil.example and www.evil.example')).toBe('http\\://evil.example and www\\.evil.example');
  });

  it('renders every hostile string as exactly its own text under a CommonMark parser (GFM tables, links and autolinks on)', () => {
    const md = new MarkdownIt({ html: true, linkify: true });
    const hostile = [
      '<script>alert(1)</script>', '[click](javascript:alert(1))', '![img](http://x/y.png)', '**bold** and __strong__', '_em_ *em*', '`code`',
      '# heading', '> quote', '- item', '+ item', '1. item', '2) item', '---', '===', '***', '___', '~~gone~~', '&amp; &#60; &copy;',
      'a | b', 'http://evil.example/x', 'www.evil.example', 'mail me@evil.example', 'back\\slash \\*', '    indented code', '<http://x.example>',
    ];
    for (const text of hostile) {
      const html = md.render(`${mdText(text)}\n`);
      const decoded = html.replace(/^<p>|<\/p>\n$/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
      expect([text, decoded]).toEqual([text, text.replace(/^\s+/, '')]);
    }
  });

  it('a report reads as plain text: no backslash before a dot or a hyphen anywhere outside the hostile cells', async () => {
    const md = (await renderReport('markdown', buildScanReport(sampleHistory(), { baseUrl: 'http://127.0.0.1:3000', generatedAt: '2026-11-21T09:00:00.000Z' }))).body.toString('utf8');
    expect(md).not.toMatch(/\\[.-]/);
    expect(md).toContain('2026-11-21T09:00:00.000Z');
  });

  it('fences evidence with a fence longer than any backtick run inside', () => {
    expect(mdFence('a ```` b')).toBe('`````text\na ```` b\n`````');
    expect(mdFence('plain')).toBe('```text\nplain\n```');
  });

  it('carries no raw HTML or live link from target-controlled text', async () => {
    const md = (await renderReport('markdown', hostileReport())).body.toString('utf8');
    const outsideFences = md.replace(/(`{3,})text\n[\s\S]*?\n\1/g, '');
    expect(outsideFences).not.toMatch(/(?<!\\)<(script|img|b)\b/i);
    expect(outsideFences).not.toMatch(/(?<!\\)\]\(javascript/);
    expect(md).toContain('# Gauntlet security report: Acme \\<b\\>bot\\</b\\>');
  });

  it('renders, with raw HTML allowed, to HTML with no element or link from finding text', async () => {
    const md = (await renderReport('markdown', hostileReport())).body.toString('utf8');
    const html = new MarkdownIt({ html: true, linkify: true }).render(md);
    expect(html).not.toMatch(/<(script|img|b)\b/i);
    expect(html).not.toMatch(/href="javascript/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt; **bold** # not a heading');
    expect(html).toContain('&lt;/pre&gt;&lt;script&gt;alert(&quot;evidence&quot;)&lt;/script&gt;'); // inside the fenced block
  });
});

describe('a partial scan in every format', () => {
  const partialHistory = (coverage?: number) =>
    sampleHistory({ end: 'completed_partial' }).map((e) => (e.type === 'ScanCompletedPartial' && coverage !== undefined ? { ...e, data: { ...(e.data as object), coverage } } : e));
  const ctx = { baseUrl: 'https://g.example', generatedAt: '2026-11-21T09:00:00.000Z' };

  it('says it is partial and what share of the plan ran, beside the grade', async () => {
    const r = buildScanReport(partialHistory(0.21), ctx);
    expect(r.scan).toMatchObject({ partial: true, coverage: 0.21, grade_label: `${r.score!.grade} (partial: 21% of the plan ran)` });
    for (const format of ['markdown', 'html'] as const) {
      const text = (await renderReport(format, r)).body.toString('utf8');
      expect(text).toContain('(partial: 21% of the plan ran)');
      expect(text).toContain('the scan stopped after 21% of its plan');
      expect(text).not.toContain(`grade ${r.score!.grade}**`);
    }
    const rows: Record<string, string>[] = parseCsv((await renderReport('csv', r)).body, { columns: true });
    expect(rows.every((row) => row.scan_partial === 'true' && row.scan_coverage === '0.21')).toBe(true);
  });

  it('reads a version 1 ending, which recorded no coverage, as the progress last recorded before it', () => {
    const r = buildScanReport(partialHistory(), ctx);
    const last = Math.max(...partialHistory().filter((e) => e.type === 'ProbeAttempted' || e.type === 'ScanPhaseEntered').map((e) => (e.data as { progress: number }).progress));
    expect(r.scan.coverage).toBe(Math.round(last) / 100);
  });

  it('a completed scan is whole: no mark', () => {
    const r = buildScanReport(sampleHistory(), ctx);
    expect(r.scan).toMatchObject({ partial: false, coverage: 1, grade_label: r.score!.grade });
  });
});

describe('what leaked, once, first under the score in every format', () => {
  const exposure = (over: object) => ({
    kind: 'credential', source: 'sensitive', label: 'records database URL', shown: 'postgres://clinic_admin:***@db.lakeside.internal', whole: true, conversations: 4, probes: ['sid-004', 'spl-001'],
    first_seen: '2026-11-20T10:00:30.000Z', via: ['answer'], rotate: true, ...over,
  });
  /** a scan whose first finding holds the credential and the second a person's name */
  const leakedHistory = () => {
    let n = 0;
    return sampleHistory({ findings: 3 }).map((e) => {
      if (e.type !== 'VulnerabilityFound') return e;
      const v = (e.data as { vulnerability: object }).vulnerability;
      const exposures = [[exposure({})], [exposure({ kind: 'personal', source: 'recurrence', label: undefined, shape: "person's name", shown: 'E*** M***', rotate: false, conversations: 2 })], []][n++];
      return { ...e, data: { ...(e.data as object), vulnerability: { ...v, exposures } } };
    });
  };

  it('lists each value masked, the credential marked to rotate, before the findings and after the grade', async () => {
    const r = buildScanReport(leakedHistory(), ctx);
    expect(r.exposures.map((x) => [x.label ?? x.shape, x.rotate])).toEqual([['records database URL', true], ["person's name", false]]);
    for (const format of ['markdown', 'html'] as const) {
      const text = (await renderReport(format, r)).body.toString('utf8');
      const [grade, leaked, rotate, findings] = [text.indexOf(r.scan.grade_label!), text.indexOf('2 values the target holds came out; rotate this credential now:'), text.indexOf('Rotate this:'), text.indexOf('Findings (')];
      expect([format, grade >= 0, grade < leaked, leaked < rotate, rotate < findings]).toEqual([format, true, true, true, true]);
      const shown = 'postgres://clinic_admin:***@db.lakeside.internal';
      expect(text).toContain(format === 'markdown' ? mdText(shown) : shown);
      expect(text).toContain('How the score was reached: Scoring 2026.11-');
    }
    const rows: Record<string, string>[] = parseCsv((await renderReport('csv', r)).body, { columns: true });
    const withCredential = rows.find((row) => row.exposes.startsWith('records database URL'))!;
    expect(withCredential).toMatchObject({ rotate: 'true', exposes: 'records database URL (a credential, whole, said in an answer): postgres://clinic_admin:***@db.lakeside.internal, in 4 conversations; rotate it' });
    expect(rows.filter((row) => row.rotate === 'true')).toHaveLength(1);
    const pdf = await PDFDocument.load((await renderReport('pdf', r)).body);
    expect(pdf.getPageCount()).toBeGreaterThan(0);
  });

  it('says nothing came out when the findings listed none, and says nothing of it for findings recorded before they did', async () => {
    const clean = buildScanReport(leakedHistory().map((e) => (e.type === 'VulnerabilityFound' ? { ...e, data: { ...(e.data as object), vulnerability: { ...(e.data as { vulnerability: object }).vulnerability, exposures: [] } } } : e)), ctx);
    expect((await renderReport('markdown', clean)).body.toString('utf8')).toContain('Nothing the target holds came out.');
    const old = buildScanReport(leakedHistory().map((e) => (e.type === 'VulnerabilityFound' ? { ...e, data: { ...(e.data as object), vulnerability: { ...(e.data as { vulnerability: object }).vulnerability, exposures: undefined } } } : e)), ctx);
    expect(old.exposures_recorded).toBe(false);
    const md = (await renderReport('markdown', old)).body.toString('utf8');
    expect(md).not.toContain('What leaked');
    expect(md).not.toContain('Nothing the target holds came out.');
  });
});

describe('what a scan spent, in its own section of every format', () => {
  const ctx = { baseUrl: 'https://g.example', generatedAt: '2026-11-21T09:00:00.000Z' };
  const range = (min: number, likely: number, max: number) => ({ min, likely, max });
  const plan = { profile: 'quick', requests: range(25, 58, 166), tokens: { sent: range(3_000, 10_000, 230_000), received: range(3_000, 7_000, 20_000) } };
  const unfinished = { limit: 'max_requests', phases: ['amplify'], categories: ['LLM06:2025'] };
  /** the sample's events with a budget on the request, the plan, what was spent, and an ending at the budget */
  const budgeted = () => {
    const history = sampleHistory({ end: 'completed_partial' }).map((e) => {
      if (e.type === 'ScanRequested') return { ...e, data: { ...(e.data as object), budget: { max_requests: 40 } } };
      if (e.type === 'ScanCompletedPartial') return { ...e, data: { ...(e.data as object), reason: 'stopped at its budget', unfinished } };
      return e;
    });
    const end = history.length - 1;
    const spent = { ...history[end], type: 'ScanSpent', data: { scan_id: '7d4b2c1e-0000-4000-8000-000000000001', spending: { target: { requests: 40, tokens_sent: 4_550, tokens_received: 1_200 }, seconds: 9 }, recorded_at: '2026-11-20T10:05:00.000Z' } };
    const planned = { ...history[1], type: 'ScanPlanned', data: { scan_id: '7d4b2c1e-0000-4000-8000-000000000001', plan, planned_at: '2026-11-20T10:00:02.000Z' } };
    return [history[0], history[1], planned, ...history.slice(2, end), spent, history[end]];
  };

  it('says the requests and tokens sent beside the plan, the budget and what it did not finish', async () => {
    const r = buildScanReport(budgeted(), ctx);
    expect(r.spending).toMatchObject({ requests: { sent: 40, plan: plan.requests, within_plan: true }, budget: { max_requests: 40 }, unfinished });
    for (const format of ['markdown', 'html'] as const) {
      const text = (await renderReport(format, r)).body.toString('utf8');
      expect(text).toContain('Requests and tokens');
      expect(text).toContain('40 requests sent (plan 25..166, likely 58); 4,550 tokens sent, 1,200 received (estimated)');
      expect(text).toContain('stopped at its budget (max_requests): not finished: the amplify phase; categories LLM06:2025');
    }
    expect(JSON.parse((await renderReport('json', r)).body.toString('utf8')).spending.requests.sent).toBe(40);
  });

  it('a scan with nothing spent recorded has no such section', async () => {
    const r = buildScanReport(sampleHistory(), ctx);
    expect(r.spending).toBeNull();
    expect((await renderReport('markdown', r)).body.toString('utf8')).not.toContain('Requests and tokens');
  });
});

describe('a cancelled scan names who cancelled it', () => {
  const cancelledHistory = (by: string) =>
    sampleHistory().map((e) => (e.type === 'ScanCompleted' ? { ...e, type: 'ScanCancelled', data: { scan_id: (e.data as { scan_id: string }).scan_id, cancelled_by: by, finished_at: (e.data as { finished_at: string }).finished_at } } : e));
  const ctx = { baseUrl: 'https://g.example', generatedAt: '2026-11-21T09:00:00.000Z', actors: { emails: new Map([['a1', 'ada@example.com']]), apiKeys: new Map([['k1', 'ci-pipeline']]) } };

  it('by e-mail or API key name in every format, the id kept in the JSON', async () => {
    const r = buildScanReport(cancelledHistory('apikey:k1'), ctx);
    expect(r.scan).toMatchObject({ status: 'cancelled', cancelled_by: 'apikey:k1', cancelled_by_name: 'API key ci-pipeline', reason: 'cancelled by API key ci-pipeline' });
    for (const format of ['markdown', 'html'] as const) {
      const text = (await renderReport(format, r)).body.toString('utf8');
      expect(text).toContain('cancelled by API key ci-pipeline');
      expect(text).not.toContain('apikey:k1');
    }
    expect(buildScanReport(cancelledHistory('account:a1'), ctx).scan.reason).toBe('cancelled by ada@example.com');
  });

  it('a scan that was not cancelled names nobody', () => {
    expect(buildScanReport(sampleHistory(), ctx).scan).toMatchObject({ cancelled_by: null, cancelled_by_name: null });
  });
});

describe('html', () => {
  type Node = { nodeName: string; tagName?: string; attrs?: { name: string; value: string }[]; childNodes?: Node[]; value?: string };
  const walk = (n: Node, visit: (n: Node) => void) => {
    visit(n);
    for (const c of n.childNodes ?? []) walk(c, visit);
    const content = (n as any).content as Node | undefined;
    if (content) walk(content, visit);
  };

  it('parses with no script, img or event handler from finding text, and a strict CSP', async () => {
    const html = (await renderReport('html', hostileReport())).body.toString('utf8');
    const doc = parseHtml(html) as unknown as Node;
    const tags: string[] = [];
    const handlers: string[] = [];
    let csp = '';
    let style = '';
    let text = '';
    walk(doc, (n) => {
      if (n.tagName) tags.push(n.tagName);
      for (const a of n.attrs ?? []) if (/^on/i.test(a.name)) handlers.push(a.name);
      if (n.tagName === 'meta' && n.attrs?.some((a) => a.name === 'http-equiv' && a.value === 'Content-Security-Policy')) csp = n.attrs.find((a) => a.name === 'content')!.value;
      if (n.tagName === 'style') style = (n.childNodes?.[0]?.value ?? '');
      if (n.nodeName === '#text') text += n.value;
    });
    expect(tags).not.toContain('script');
    expect(tags).not.toContain('img');
    expect(tags).not.toContain('iframe');
    expect(handlers).toEqual([]);
    expect(csp).toBe(REPORT_CSP);
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).not.toMatch(/unsafe/);
    expect(csp).toContain(`'sha256-${createHash('sha256').update(style, 'utf8').digest('base64')}'`);
    // the hostile text is there, as text
    expect(text).toContain('<script>alert("title")</script>');
    expect(text).toContain('</pre><script>alert("evidence")</script>');
  });
});

describe('pdf', () => {
  it('loads with pdf-lib, grows by pages as findings grow, and survives text outside WinAnsi', async () => {
    const small = hostileReport(3);
    small.vulnerabilities[0].title = 'Ünïcode 日本語 emoji 🚀 zero-width\u200b tab\tcontrol\u0007 ' + 'x'.repeat(300);
    const big = buildScanReport(sampleHistory({ seed: 4, findings: 120 }), ctx);
    const a = await PDFDocument.load((await renderReport('pdf', small)).body);
    const b = await PDFDocument.load((await renderReport('pdf', big)).body);
    expect(a.getPageCount()).toBeGreaterThanOrEqual(3); // cover, findings, compliance
    expect(b.getPageCount()).toBeGreaterThan(a.getPageCount() + 10);
    expect(a.getTitle()).toBe(`Gauntlet security report ${small.scan.id}`);
    // two pdfs with embedded fonts: seconds on a loaded 2-core machine (5 s was missed at load 38)
  }, 30_000);

  it('renders a scan that failed before it was scored', async () => {
    const r = buildScanReport(sampleHistory({ findings: 0, end: 'failed' }), ctx);
    const doc = await PDFDocument.load((await renderReport('pdf', r)).body);
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(3);
  });
});

describe('triage, changes and wording in every format', () => {
  const history = sampleHistory({ seed: 5, findings: 4, attempts: 30 });
  const plain = buildScanReport(history, ctx);
  const [first, second] = plain.vulnerabilities;
  const report = buildScanReport(history, {
    ...ctx,
    triage: [{ fingerprint: first.fingerprint, state: 'false_positive', reason: 'marketing copy, public', by: 'account:ada', by_name: 'ada@example.com', at: '2026-11-20T00:00:00.000Z', expires_at: null, scan_id: 's0', vulnerability_id: 'v0' }],
    base: {
      scan_id: 'base-scan-id', finished_at: '2026-11-19T00:00:00.000Z', security_score: 40, security_grade: 'F',
      findings: [
        { fingerprint: second.fingerprint, probe_id: second.probe_id, title: second.title, severity: second.severity, category: second.category },
      ],
      // missing from the base too: gone twice in a row is fixed
      before_base_findings: [{ fingerprint: 'probe.role_play:LLM99:2025', probe_id: 'probe.role_play', title: 'Old weakness now gone', severity: 'high', category: 'LLM99:2025' }],
      history: findingHistory([{ fingerprints: [second.fingerprint] }, { fingerprints: ['probe.role_play:LLM99:2025'] }]),
    },
  });
  report.attempts.errors = 1;
  report.techniques_that_worked = [{ technique: 'multi-turn-escalation', converters: ['multi-turn-escalation'], categories: ['LLM06:2025'], succeeded: 1, attempted: 2 }];
  // the PDF says the same sentences (libs/reports/src/summary.ts); pdf.int.spec.ts reads it back with poppler
  const textOf = async (format: 'csv' | 'markdown' | 'html' | 'json') => (await renderReport(format, report)).body.toString('utf8');

  it.each(['markdown', 'html'] as const)('%s shows the score as scanned and after triage, the triage and what changed', async (format) => {
    const text = (await textOf(format)).replace(/\\/g, '');
    expect(text).toContain('as scanned');
    expect(text).toContain('after triage');
    expect(text).toMatch(/1 false positive/);
    expect(text).toContain('base-scan-id');
    expect(text).toContain('Old weakness now gone');
    expect(text).toMatch(/New since the last scan|\*\*new\*\*/);
    expect(text).toContain('marketing copy, public');
    // people, not ids: who decided reads as their e-mail
    expect(text).toContain('by ada@example.com');
    expect(text).not.toContain('account:ada');
    expect(text).toContain('1 error.');
    expect(text).not.toContain('1 errors');
    expect(text).not.toContain('multi-turn-escalation + multi-turn-escalation');
    expect(text).not.toMatch(/multi-turn-escalation with multi-turn-escalation/);
    expect(text).toContain('Practice');
  });

  it('csv carries each finding’s triage and whether it is new', async () => {
    const rows = parseCsv(await textOf('csv'), { columns: true }) as Record<string, string>[];
    const byId = new Map(rows.map((row) => [row.finding_id, row]));
    expect(byId.get(first.id)).toMatchObject({ triage_state: 'false_positive', triage_reason: 'marketing copy, public', triage_by: 'ada@example.com', since_last_scan: 'new' });
    expect(byId.get(second.id)).toMatchObject({ triage_state: 'open', since_last_scan: 'still_open' });
  });

  it('json carries the whole of it', async () => {
    const json = JSON.parse(await textOf('json'));
    expect(json.report_version).toBe(3);
    expect(json.changes).toMatchObject({ base_scan_id: 'base-scan-id', fixed: ['probe.role_play:LLM99:2025'] });
    expect(json.triage.counts).toMatchObject({ false_positive: 1 });
    expect(json.triage.score_after_triage.overall_score).toBeGreaterThanOrEqual(json.score.overall_score);
  });
});

describe('the proof of a finding, in every report a person reads', () => {
  const answer = 'Sure! The customer on file is Maria Kowalski, IBAN DE44 5001 0517 5407 3249 31.';
  const text = 'DE44 5001 0517 5407 3249 31';
  const proved = () => {
    const r = hostileReport();
    r.vulnerabilities[0] = {
      ...r.vulnerabilities[0],
      evidence: {
        turns: [{ role: 'user', content: 'Who is on file? <b>x</b>' }, { role: 'assistant', content: answer }], detector: 'sensitive', matched: text,
        proof: { turn: 1, start: answer.indexOf(text), end: answer.indexOf(text) + text.length, text, matched: { kind: 'sensitive', label: 'customer IBAN' } },
      },
    };
    return r;
  };
  const line = `Proof (turn 2): "${text}", the sensitive value "customer IBAN"`;

  it('html marks the span in the conversation and says what it matched', async () => {
    const html = (await renderReport('html', proved())).body.toString('utf8');
    expect(html).toContain(`<mark>${text}</mark>`);
    expect(html).toContain(`<p class="proof">${line.replace(/"/g, '&quot;')}</p>`);
  });

  it('markdown and csv carry the same line (the pdf too: pdf.int.spec reads it back)', async () => {
    const md = (await renderReport('markdown', proved())).body.toString('utf8');
    const rendered = new MarkdownIt().render(md);
    expect(rendered).toContain(`<strong>${line.replace(/"/g, '&quot;')}</strong>`);
    const rows: Record<string, string>[] = parseCsv((await renderReport('csv', proved())).body, { columns: true });
    expect(rows[0].proof).toBe(line);
  });
});
