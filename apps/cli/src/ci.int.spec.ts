import { buildScanReport } from '@gauntlet/assessment';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleHistory } from '../../../libs/assessment/testing/sample-history';
import sarifSchema from '../../../libs/reports/schemas/sarif-schema-2.1.0.json';
import { EXIT, main } from './main';

const SCAN_ID = '7d4b2c1e-0000-4000-8000-000000000001';
const TARGET = '11111111-2222-4333-8444-555555555555';
const KEY = 'gk_test_0123456789';

/** The scan the fake service reports: a real report model, so findings look like production ones. */
const report = buildScanReport(sampleHistory({ seed: 21, findings: 12, scanId: SCAN_ID }), { baseUrl: 'http://svc', generatedAt: '2026-11-21T00:00:00Z' });
report.vulnerabilities[0] = { ...report.vulnerabilities[0], title: 'Leak of <secret> & "quotes" \u0001 control', evidence: { ...report.vulnerabilities[0].evidence, matched: ']]> <x/>' } };

type Script = { ci: Array<{ status: number; body: unknown }>; start?: { status: number; body: unknown }; detail?: number };

interface Fake {
  url: string;
  requests: { method: string; url: string; key: string | undefined; body: any }[];
  close(): Promise<void>;
}

async function fakeService(script: Script): Promise<Fake> {
  const requests: Fake['requests'] = [];
  const readBody = (req: IncomingMessage) => new Promise<string>((resolve) => {
    let s = '';
    req.on('data', (c) => (s += c));
    req.on('end', () => resolve(s));
  });
  let polls = 0;
  const server: Server = createServer(async (req, res) => {
    const text = await readBody(req);
    requests.push({ method: req.method!, url: req.url!, key: req.headers['x-api-key'] as string | undefined, body: text ? JSON.parse(text) : undefined });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers['x-api-key'] !== KEY) return send(401, { type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'Invalid API key.' });
    if (req.method === 'POST' && req.url === '/api/ci/scan') return send(script.start?.status ?? 202, script.start?.body ?? { scan_id: SCAN_ID, status: 'pending' });
    if (req.method === 'GET' && req.url === `/api/ci/scan/${SCAN_ID}`) {
      const step = script.ci[Math.min(polls++, script.ci.length - 1)];
      return send(step.status, step.body);
    }
    if (req.method === 'GET' && req.url === `/api/scans/${SCAN_ID}`) {
      return send(script.detail ?? 200, { id: SCAN_ID, target_id: TARGET, target_name: report.target.name, status: 'completed', finished_at: report.scan.finished_at, vulnerabilities: report.vulnerabilities });
    }
    if (req.method === 'GET' && req.url === `/api/scans/${SCAN_ID}/score`) return send(200, report.score);
    if (req.method === 'GET' && req.url === `/api/targets/${TARGET}`) return send(200, { id: TARGET, name: 'HelpBot', url: 'https://bot.example.com/chat', scan_mode: 'browser' });
    send(404, { title: 'Not Found', status: 404 });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

const gateBody = (score: number, passed: boolean) => ({
  scan_id: SCAN_ID, status: 'completed', security_score: score, security_grade: passed ? 'B' : 'F', fail_threshold: 70, passed, report_url: `http://svc/api/scans/${SCAN_ID}/report`,
});

async function run(args: string[], env: Record<string, string> = { GAUNTLET_API_KEY: KEY }) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { stdout: (l) => out.push(l), stderr: (l) => err.push(l), env });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('gauntlet ci against a fake service', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let svc: Fake | undefined;
  afterEach(async () => {
    await svc?.close();
    svc = undefined;
  });
  const base = (extra: string[] = []) => ['ci', '--target', TARGET, '--fail-threshold', '70', '--url', svc!.url, '--poll-interval', '0.01', ...extra];

  it('exits 0 when the gate passes, after polling, and writes valid SARIF 2.1.0 and JUnit XML', async () => {
    svc = await fakeService({ ci: [{ status: 202, body: { scan_id: SCAN_ID, status: 'pending' } }, { status: 202, body: { scan_id: SCAN_ID, status: 'running' } }, { status: 200, body: gateBody(83, true) }] });
    const sarifFile = join(dir, 'pass.sarif');
    const junitFile = join(dir, 'pass.xml');
    const r = await run(base(['--sarif', sarifFile, '--junit', junitFile]));
    expect(r.err).toBe('');
    expect(r.code).toBe(EXIT.passed);
    expect(r.out).toContain('PASSED');

    expect(svc.requests[0]).toEqual({ method: 'POST', url: '/api/ci/scan', key: KEY, body: { target_id: TARGET, fail_threshold: 70 } });
    expect(svc.requests.filter((q) => q.url === `/api/ci/scan/${SCAN_ID}`)).toHaveLength(3);
    expect(svc.requests.every((q) => q.key === KEY)).toBe(true);

    const sarif = JSON.parse(readFileSync(sarifFile, 'utf8'));
    // the published schema's "language" pattern has a stray ']' that is only legal without the u flag
    const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv);
    const validate = ajv.compile(sarifSchema);
    expect(validate(sarif) ? [] : validate.errors).toEqual([]);
    const run0 = sarif.runs[0];
    expect(run0.results).toHaveLength(report.vulnerabilities.length);
    // as docs/ci.md says: located at the target's URL; the driver carries the client's version
    expect(run0.tool.driver).toMatchObject({ name: 'Gauntlet', version: '0.1.0', semanticVersion: '0.1.0' });
    for (const res of run0.results) expect(res.locations[0].physicalLocation.artifactLocation.uri).toBe('https://bot.example.com/chat');
    expect(new Set(run0.tool.driver.rules.map((x: any) => x.id))).toEqual(new Set(report.vulnerabilities.map((v) => v.probe_id)));
    const levels = { critical: 'error', high: 'error', medium: 'warning', low: 'note' } as const;
    report.vulnerabilities.forEach((v, i) => {
      expect(run0.results[i].level).toBe(levels[v.severity]);
      expect(run0.results[i].ruleId).toBe(v.probe_id);
      expect(run0.tool.driver.rules[run0.results[i].ruleIndex].id).toBe(v.probe_id);
      expect(Number(run0.results[i].properties['security-severity'])).toBeGreaterThan(0);
    });

    const xml = readFileSync(junitFile, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => ['testcase', 'property'].includes(name) }).parse(xml);
    const suite = doc.testsuites.testsuite;
    const cases: any[] = suite.testcase;
    const owaspCases = cases.filter((c) => c['@classname'] === 'gauntlet.owasp_llm_top10');
    expect(owaspCases).toHaveLength(10);
    const failing = owaspCases.filter((c) => c.failure);
    const categoriesWithFindings = new Set(report.vulnerabilities.map((v) => v.category));
    expect(failing).toHaveLength(categoriesWithFindings.size);
    expect(Number(suite['@failures'])).toBe(failing.length);
    expect(Number(suite['@tests'])).toBe(cases.length);
    expect(cases.find((c) => c['@classname'] === 'gauntlet.gate').failure).toBeUndefined();
    expect(xml).not.toContain('\u0001');
    expect(JSON.stringify(doc)).toContain('Leak of <secret> & \\"quotes\\"');
  });

  it('exits 1 when the score is below the threshold, still writing results', async () => {
    svc = await fakeService({ ci: [{ status: 422, body: gateBody(41, false) }] });
    const junitFile = join(dir, 'below.xml');
    const r = await run(base(['--junit', junitFile]));
    expect(r.code).toBe(EXIT.belowThreshold);
    expect(r.out).toContain('below threshold');
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (n) => n === 'testcase' }).parse(readFileSync(junitFile, 'utf8'));
    expect(doc.testsuites.testsuite.testcase.find((c: any) => c['@classname'] === 'gauntlet.gate').failure).toBeDefined();
  });

  it('exits 2 when the scan failed (424), naming the reason', async () => {
    svc = await fakeService({ ci: [{ status: 424, body: { scan_id: SCAN_ID, status: 'failed', reason: 'target never answered', passed: false } }] });
    const r = await run(base());
    expect(r.code).toBe(EXIT.error);
    expect(r.err).toContain('target never answered');
  });

  it('exits 2 on a partial scan (424), saying why and how to gate on it anyway; --allow-partial asks for that', async () => {
    const partial = { type: 'urn:gauntlet:problem:scan-partial', status: 424, scan_id: SCAN_ID, scan_status: 'completed_partial', reason: 'the target stopped answering', passed: false };
    svc = await fakeService({ ci: [{ status: 424, body: partial }] });
    const r = await run(base());
    expect(r.code).toBe(EXIT.error);
    expect(r.err).toContain('completed_partial (the target stopped answering)');
    expect(r.err).toContain('--allow-partial');
    await svc.close();
    svc = await fakeService({
      ci: [{ status: 200, body: { ...gateBody(80, true), status: 'completed_partial', allow_partial: true, partial: true, coverage: 0.4, security_grade_label: 'B (partial: 40% of the plan ran)' } }],
    });
    const allowed = await run(base(['--allow-partial']));
    expect(allowed.code).toBe(EXIT.passed);
    expect(svc.requests[0].body).toEqual({ target_id: TARGET, fail_threshold: 70, allow_partial: true });
    // the grade of a partial scan is never printed without its mark
    expect(allowed.out).toContain('score 80, grade B (partial: 40% of the plan ran)');
    expect(allowed.out).not.toContain('(B)');
  });

  it('with --fail-on new gates only on new findings, without a threshold', async () => {
    svc = await fakeService({ ci: [{ status: 422, body: { ...gateBody(20, false), fail_on: 'new', new_findings: 2, base_scan_id: 'prev-scan' } }] });
    const r = await run(['ci', '--target', TARGET, '--fail-on', 'new', '--url', svc.url, '--poll-interval', '0.01']);
    expect(r.code).toBe(EXIT.belowThreshold);
    expect(r.out).toContain('2 new finding(s) since scan prev-scan: FAILED, new findings');
    expect(svc.requests[0].body).toEqual({ target_id: TARGET, fail_threshold: 0, fail_on: 'new' });
    expect((await run(['ci', '--target', TARGET, '--fail-on', 'sometimes', '--url', svc.url])).code).toBe(EXIT.error);
  });

  it('exits 2 when the service times the scan out (504)', async () => {
    svc = await fakeService({ ci: [{ status: 504, body: { scan_id: SCAN_ID } }] });
    expect((await run(base())).code).toBe(EXIT.error);
  });

  it('exits 2 when its own --timeout passes first', async () => {
    svc = await fakeService({ ci: [{ status: 202, body: { scan_id: SCAN_ID, status: 'running' } }] });
    const r = await run(base(['--timeout', '0.15']));
    expect(r.code).toBe(EXIT.error);
    expect(r.err).toMatch(/timed out/);
  });

  it('exits 2 on a refused API key, with the service\'s problem detail', async () => {
    svc = await fakeService({ ci: [] });
    const r = await run(base(['--api-key', 'wrong']), {});
    expect(r.code).toBe(EXIT.error);
    expect(r.err).toContain('Invalid API key.');
  });

  it('exits 2 when the service cannot be reached', async () => {
    svc = await fakeService({ ci: [] });
    const url = svc.url;
    await svc.close();
    svc = undefined;
    const r = await run(['ci', '--target', TARGET, '--fail-threshold', '70', '--url', url]);
    expect(r.code).toBe(EXIT.error);
    expect(r.err).toMatch(/cannot reach/);
  });

  it('exits 2 when the findings cannot be read for the requested SARIF', async () => {
    svc = await fakeService({ ci: [{ status: 200, body: gateBody(90, true) }], detail: 500 });
    const file = join(dir, 'never.sarif');
    expect((await run(base(['--sarif', file]))).code).toBe(EXIT.error);
    expect(existsSync(file)).toBe(false);
  });

  it.each([
    [['ci', '--fail-threshold', '70'], /--target is required/],
    [['ci', '--target', TARGET], /--fail-threshold is required/],
    [['ci', '--target', TARGET, '--fail-threshold', '101'], /0 to 100/],
    [['ci', '--target', TARGET, '--fail-threshold', '7.5'], /0 to 100/],
    [['ci', '--target', TARGET, '--fail-threshold', '70', '--url', 'ftp://x'], /http\(s\)/],
    [['ci', '--target', TARGET, '--fail-threshold', '70', '--bogus'], /unknown option/i],
    [['bogus'], /unknown command/],
  ])('exits 2 on bad arguments %j without calling the service', async (args, message) => {
    const r = await run(args as string[]);
    expect(r.code).toBe(EXIT.error);
    expect(r.err).toMatch(message);
  });

  it('exits 2 without an API key', async () => {
    const r = await run(['ci', '--target', TARGET, '--fail-threshold', '70'], {});
    expect(r.code).toBe(EXIT.error);
    expect(r.err).toMatch(/GAUNTLET_API_KEY/);
  });
});
