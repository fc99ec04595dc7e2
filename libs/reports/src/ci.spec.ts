import { sampleVulnerability, seeded } from '../../assessment/testing/sample-history';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { CiScanResult, toJunitXml, toSarif, xmlText } from './ci';

const rnd = seeded(3);
const scan = (over: Partial<CiScanResult> = {}): CiScanResult => ({
  id: 'scan-1', target_id: 't-1', target_name: 'Bot', security_score: 55, security_grade: 'F', fail_threshold: 70,
  vulnerabilities: [
    sampleVulnerability(rnd, 1, { category: 'LLM01:2025', severity: 'high' }),
    sampleVulnerability(rnd, 2, { category: 'LLM06:2026', category_name: 'Unbounded Consumption', severity: 'low' }),
    sampleVulnerability(rnd, 3, { category: 'LLM07:2023', category_name: 'Insecure Plugin Design', severity: 'critical' }),
  ],
  category_scores: {
    'LLM01:2025': { name: 'Prompt Injection', score: 50, probes_run: 4, probes_failed: 2, findings: 1 },
    'LLM10:2025': { name: 'Unbounded Consumption', score: 90, probes_run: 3, probes_failed: 0, findings: 1 },
  },
  ...over,
});
const parse = (xml: string) => new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (n) => n === 'testcase' }).parse(xml).testsuites.testsuite;

describe('toJunitXml', () => {
  it('has a testcase per OWASP category, skips the unprobed ones, adds other-edition ids and the gate', () => {
    const xml = toJunitXml(scan());
    expect(XMLValidator.validate(xml)).toBe(true);
    const suite = parse(xml);
    const names: string[] = suite.testcase.map((c: any) => c['@name']);
    expect(names.filter((n) => /^LLM\d\d:2025 /.test(n))).toHaveLength(10);
    expect(names).toContain('LLM10:2025 Unbounded Consumption (LLM06:2026)'); // a 2026-tagged finding lands on its 2025 case
    expect(names).toContain('LLM07:2023 Insecure Plugin Design');
    const byName = (prefix: string) => suite.testcase.find((c: any) => c['@name'].startsWith(prefix));
    expect(byName('LLM01:2025').failure['@type']).toBe('high');
    expect(byName('LLM02:2025').skipped).toBeDefined();
    expect(byName('LLM07:2023').failure['@type']).toBe('critical');
    expect(byName('security score 55').failure).toBeDefined();
    expect(Number(suite['@failures'])).toBe(4);
    expect(Number(suite['@skipped'])).toBe(8);
    expect(Number(suite['@tests'])).toBe(12);
  });

  it('passes every probed category without findings, and the gate at the threshold', () => {
    const suite = parse(toJunitXml(scan({ vulnerabilities: [], category_scores: null, security_score: 70 })));
    expect(suite.testcase.filter((c: any) => c.failure || c.skipped)).toEqual([]);
  });
});

describe('toSarif', () => {
  it('one rule per kind of weakness, one result per finding, fingerprinted by the weakness; what leaked under the score, the credentials to rotate', () => {
    const exposure = { kind: 'credential' as const, source: 'sensitive' as const, label: 'records database URL', shown: 'postgres://clinic_admin:***@db', whole: true, conversations: 3, probes: ['sid-004'], first_seen: '2026-11-20T10:00:00.000Z', via: ['answer' as const], rotate: true };
    const found = [
      sampleVulnerability(rnd, 4, { fingerprint: 'LLM02:2025:value:h0123456789abcdef', category: 'LLM02:2025', severity: 'critical', exposures: [exposure], probes: ['sid-004', 'spl-001'], conversations: 3 }),
      sampleVulnerability(rnd, 5, { fingerprint: 'LLM02:2025:value:hfedcba9876543210', category: 'LLM02:2025', severity: 'high' }),
      sampleVulnerability(rnd, 6, { fingerprint: 'LLM01:2025:instruction:direct', category: 'LLM01:2025', severity: 'high' }),
    ];
    const sarif: any = toSarif(scan({ vulnerabilities: found, report_url: 'https://g.example/r', exposures: [{ ...exposure, vulnerability_id: found[0].id }] }), { version: '0.1.0' });
    const run = sarif.runs[0];
    expect(run.tool.driver.rules.map((r: any) => r.id)).toEqual(['LLM01:2025:instruction', 'LLM02:2025:value']);
    expect(run.results.map((r: any) => [r.ruleId, r.partialFingerprints['gauntletFinding/v3']])).toEqual([
      ['LLM02:2025:value', 't-1:LLM02:2025:value:h0123456789abcdef'],
      ['LLM02:2025:value', 't-1:LLM02:2025:value:hfedcba9876543210'],
      ['LLM01:2025:instruction', 't-1:LLM01:2025:instruction:direct'],
    ]);
    expect(run.results[0].properties).toMatchObject({ probes: ['sid-004', 'spl-001'], conversations: 3, exposures: [expect.stringMatching(/^records database URL \(a credential, whole, said in an answer\): postgres:\/\/clinic_admin:\*\*\*@db, in 3 conversations; rotate it$/)] });
    expect(Object.keys(run.properties).slice(0, 4)).toEqual(['report_url', 'security_score', 'security_grade', 'exposures']);
    expect(run.properties.rotate).toEqual([expect.stringMatching(/^records database URL/)]);
  });

  it('maps severities to levels and security-severity, one rule per kind of finding', () => {
    const sarif: any = toSarif(scan(), { version: '0.1.0' });
    const results = sarif.runs[0].results;
    expect(results.map((r: any) => [r.level, r.properties['security-severity']])).toEqual([['error', '8.0'], ['note', '3.0'], ['error', '9.5']]);
    const rules = sarif.runs[0].tool.driver.rules;
    expect(new Set(rules.map((r: any) => r.id)).size).toBe(rules.length);
    for (const r of results) expect(rules[r.ruleIndex].id).toBe(r.ruleId);
  });
});

describe('a partial scan in JUnit and SARIF', () => {
  it('carries its mark and coverage beside the grade', () => {
    const partial = scan({ partial: true, coverage: 0.21, report_url: 'https://g.example/api/scans/scan-1/report' });
    const suite = parse(toJunitXml(partial));
    const props = Object.fromEntries(suite.properties.property.map((p: any) => [p['@name'], p['@value']]));
    expect(props).toMatchObject({ security_grade: 'F (partial: 21% of the plan ran)', partial: 'true', coverage: '0.21' });
    expect(suite.testcase.some((c: any) => c['@name'] === 'security score 55 (F (partial: 21% of the plan ran)) >= fail threshold 70')).toBe(true);
    const sarif: any = toSarif(partial, { version: '0.1.0' });
    expect(sarif.runs[0].properties).toMatchObject({ security_grade: 'F (partial: 21% of the plan ran)', partial: true, coverage: 0.21 });
  });
});

describe('xmlText', () => {
  it('escapes markup and drops characters XML 1.0 cannot hold', () => {
    expect(xmlText('<a href="x">&\'\u0000\u0008\u001b\uFFFE ok\t\n')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos; ok\t\n');
    expect(xmlText('🚀 日本')).toBe('🚀 日本');
  });
});
