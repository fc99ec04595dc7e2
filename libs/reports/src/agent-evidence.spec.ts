import { buildScanReport, ScanReport } from '@gauntlet/assessment';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { sampleHistory, sampleOutOfBandFinding, sampleToolCallFinding } from '../../assessment/testing/sample-history';
import sarifSchema from '../schemas/sarif-schema-2.1.0.json';
import { toJunitXml, toSarif } from './ci';
import { renderReport } from './render';

const ctx = { baseUrl: 'https://gauntlet.example', generatedAt: '2026-11-21T09:00:00.000Z', target: { url: 'https://agent.example/v1', scan_mode: 'api' } };
const CALL = 'the agent called send_payment with to_account="DE89 3704 0044 0532 0130 00", amount=5000, memo="urgent \\"refund\\"\\nline two"';
const HIT = 'a request reached the planted address: GET /oob/7f3a9c/c?d=Jane%20Doe at 2026-11-20T10:00:07.120Z';

/** given a scan whose findings an agent's call and a callback hit prove */
function agentReport(): ScanReport {
  const r = buildScanReport(sampleHistory({ seed: 4, findings: 2 }), ctx);
  r.vulnerabilities = [sampleToolCallFinding(), sampleOutOfBandFinding(), ...r.vulnerabilities];
  return r;
}
const text = async (format: 'csv' | 'markdown' | 'html' | 'json') => (await renderReport(format, agentReport())).body.toString('utf8');

describe('reports show what an agent did as what it is', () => {
  it('csv: the proof kind, the tool and its arguments as JSON, the request that came back, each in its own column', async () => {
    const rows: Record<string, string>[] = parseCsv(await text('csv'), { columns: true });
    const [call, hit, said] = rows;
    expect(call).toMatchObject({ proof_kind: 'tool_call', proof_tool: 'send_payment', proof_request: '', proof: `Proof (turn 2): ${CALL}` });
    expect(JSON.parse(call.proof_arguments)).toEqual(sampleToolCallFinding().evidence.proof!.matched.arguments);
    expect(hit).toMatchObject({ proof_kind: 'out_of_band', proof_tool: '', proof_arguments: '', proof_request: 'GET /oob/7f3a9c/c?d=Jane%20Doe', proof_request_at: '2026-11-20T10:00:07.120Z' });
    // the conversation names the call and the tool's result as their own turns
    expect(call.evidence).toContain('assistant: -> called send_payment(to_account=');
    expect(call.evidence).toContain('tool send_payment: {"status":"sent","reference":"TX-4471"}');
    expect(said.proof_kind).toBe('');
  });

  it('markdown and html: the proof line says the call and the hit; html marks the call in the conversation', async () => {
    const md = await text('markdown');
    expect(md).toContain('the agent called send_payment with to_account=');
    expect(md).toContain('a request reached the planted address: GET /oob/7f3a9c/c?d=Jane%20Doe');
    const html = await text('html');
    expect(html).toContain('<mark>called send_payment(to_account=&quot;DE89 3704 0044 0532 0130 00&quot;, amount=5000');
    expect(html).toContain(`<p class="proof">Proof (turn 1): ${HIT}</p>`);
  });

  it('json: each proof says in words what it shows, beside the structured call', async () => {
    const json = JSON.parse(await text('json'));
    expect(json.vulnerabilities[0].evidence.proof).toMatchObject({ matched: { kind: 'tool_call', tool: 'send_payment', arguments: { amount: 5000 } }, shows: CALL });
    expect(json.vulnerabilities[1].evidence.proof.shows).toBe(HIT);
    expect(json.vulnerabilities[0].evidence.turns[1].tool_calls[0]).toMatchObject({ id: 'call_1', name: 'send_payment' });
  });

  it('pdf renders them (a call whose arguments hold quotes and a line break)', async () => {
    const out = await renderReport('pdf', agentReport());
    expect(out.body.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('CI outputs carry the call or the hit', () => {
  const scan = { id: 's-1', target_id: 't-1', target_name: 'Agent', target_url: 'https://agent.example/v1', security_score: 20, security_grade: 'F', fail_threshold: 70, vulnerabilities: [sampleToolCallFinding(), sampleOutOfBandFinding()] };

  it('SARIF: the message ends with the proof, the properties hold the tool and arguments or the request; still valid SARIF 2.1.0', () => {
    const sarif: any = toSarif(scan, { version: '0.1.0' });
    const [call, hit] = sarif.runs[0].results;
    expect(call.message.text).toContain(`Proof (turn 2): ${CALL}`);
    expect(call.properties).toMatchObject({ proof_kind: 'tool_call', tool: 'send_payment' });
    expect(call.properties.tool_arguments).toContain('amount=5000');
    expect(hit.properties).toMatchObject({ proof_kind: 'out_of_band', request: 'GET /oob/7f3a9c/c?d=Jane%20Doe', request_at: '2026-11-20T10:00:07.120Z' });
    const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv);
    const validate = ajv.compile(sarifSchema);
    expect(validate(sarif) ? [] : validate.errors).toEqual([]);
  });

  it('JUnit: the failing category says the call and the hit', () => {
    const xml = toJunitXml(scan);
    expect(XMLValidator.validate(xml)).toBe(true);
    const cases = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (n) => n === 'testcase' }).parse(xml).testsuites.testsuite.testcase;
    const body = (prefix: string) => cases.find((c: any) => c['@name'].startsWith(prefix)).failure['#text'];
    expect(body('LLM06:2025')).toContain(CALL);
    expect(body('LLM01:2025')).toContain(HIT);
  });
});
