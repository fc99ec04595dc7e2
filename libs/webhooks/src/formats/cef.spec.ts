import { agentCall, agentCompleted, agentHit, alert, ALL, completed, critical, failed, leaked, NASTY, ping, started } from '../../test/fixtures';
import { renderCef } from './cef';

/**
 * A strict CEF reader written from the ArcSight CEF spec text: 7 pipe-delimited header fields
 * (only \\ and \| escapes allowed), then space-separated key=value extensions (only \\, \=, \n, \r
 * escapes; an unescaped = must start a new key). Anything else throws.
 */
function parseCef(line: string): { header: string[]; ext: Record<string, string> } {
  if (/[\r\n]/.test(line)) throw new Error('a CEF record is one line');
  if (!line.startsWith('CEF:')) throw new Error('no CEF: prefix');
  const header: string[] = [];
  let cur = '';
  let i = 4;
  for (; i < line.length && header.length < 7; i++) {
    const c = line[i];
    if (c === '\\') {
      const n = line[++i];
      if (n !== '\\' && n !== '|') throw new Error(`bad header escape \\${n} at ${i}`);
      cur += n;
    } else if (c === '|') {
      header.push(cur);
      cur = '';
    } else cur += c;
  }
  if (header.length !== 7) throw new Error('fewer than 7 header fields');
  header[0] = 'CEF:' + header[0];
  const rest = line.slice(i);
  // find keys: an unescaped '=' preceded by a key at the start or after a space
  const ext: Record<string, string> = {};
  const starts: { key: string; keyAt: number; valueAt: number }[] = [];
  for (let j = 0; j < rest.length; j++) {
    if (rest[j] === '\\') {
      j++;
      continue;
    }
    if (rest[j] === '=') {
      const m = /(?:^| )([A-Za-z0-9_]+)$/.exec(rest.slice(0, j));
      if (!m) throw new Error(`unescaped = in a value at ${j}`);
      starts.push({ key: m[1], keyAt: j - m[1].length, valueAt: j + 1 });
    }
  }
  starts.forEach((s, k) => {
    const end = k + 1 < starts.length ? starts[k + 1].keyAt - 1 : rest.length;
    const raw = rest.slice(s.valueAt, end);
    if (k + 1 < starts.length && rest[end] !== ' ') throw new Error('keys are space separated');
    let value = '';
    for (let j = 0; j < raw.length; j++) {
      if (raw[j] !== '\\') {
        value += raw[j];
        continue;
      }
      const n = raw[++j];
      value += { '\\': '\\', '=': '=', n: '\n', r: '\r' }[n] ?? (() => { throw new Error(`bad extension escape \\${n}`); })();
    }
    if (s.key in ext) throw new Error(`duplicate key ${s.key}`);
    ext[s.key] = value;
  });
  return { header, ext };
}

const product = { vendor: 'Gauntlet', product: 'Gauntlet', version: '0.1.0' };

describe('cef format', () => {
  it('scan.completed: every header field and extension reads back', () => {
    const { header, ext } = parseCef(renderCef(completed, product));
    expect(header).toEqual(['CEF:0', 'Gauntlet', 'Gauntlet', '0.1.0', 'scan.completed', 'Scan completed', '10']);
    const d = completed.data;
    expect(ext).toEqual({
      rt: String(Date.parse(completed.timestamp)),
      msg: `Scan completed on ${NASTY}: score 82 grade B+; 6 findings (critical 1, high 2, medium 1, low 2)`,
      cat: 'scan.completed', externalId: completed.id, outcome: 'completed', request: d.report_url,
      cs1: d.scan_id, cs1Label: 'scanId', cs2: d.target_id, cs2Label: 'targetId', cs3: NASTY, cs3Label: 'targetName', cs4: 'B+', cs4Label: 'securityGrade',
      cn1: '82', cn1Label: 'securityScore', cn2: '6', cn2Label: 'totalFindings', cn3: '1', cn3Label: 'criticalFindings',
    });
  });

  it('a scan that leaked: what leaked right after the score in msg, whole in cs6 exposures, with what to rotate', () => {
    const { ext } = parseCef(renderCef(leaked, product));
    expect(ext.msg).toMatch(/^Scan completed on [\s\S]+: score 82 grade B\+; Leaked 2 values the target holds; rotate 1 credential: records database URL /);
    expect(ext.cs6Label).toBe('exposures');
    expect(ext.cs6).toContain(`records database URL ${NASTY}`);
    expect(ext.cs6).toContain('postgres://clinic_admin:***@db.lakeside.internal, in 4 conversations; rotate it');
    expect(ext.cs6).toContain("person's name (a person's data, whole, sent to an attacker's address and said in an answer): E*** M***");
    expect(parseCef(renderCef(completed, product)).ext.cs6).toBeUndefined();
  });

  it('vulnerability.critical: escaped title in the header, OWASP category and finding id in custom strings', () => {
    const { header, ext } = parseCef(renderCef(critical, product));
    const v = critical.data.vulnerability!;
    expect(header).toEqual(['CEF:0', 'Gauntlet', 'Gauntlet', '0.1.0', 'vulnerability.critical', `Critical vulnerability: ${v.title}`, '10']);
    expect(ext).toMatchObject({ cs5: 'LLM07:2025', cs5Label: 'owaspCategory', cs6: 'v-17', cs6Label: 'vulnerabilityId', outcome: 'running', cn3: '1' });
    expect(ext.cs4).toBeUndefined(); // no grade before the scan is scored: left out, not invented
  });

  it('a finding an agent\'s act proves: the kind in flexString2, the call or the request in msg (escaped, read back whole), the method in requestMethod', () => {
    const call = parseCef(renderCef(agentCall, product)).ext;
    expect(call).toMatchObject({ flexString2: 'tool_call', flexString2Label: 'proofKind' });
    expect(call.msg.endsWith(`. Proof: ${agentCall.data.vulnerability!.proof!.shows}`)).toBe(true);
    const hit = parseCef(renderCef(agentHit, product)).ext;
    expect(hit).toMatchObject({ flexString2: 'out_of_band', requestMethod: 'GET' });
    expect(hit.msg).toContain('GET /oob/7f3a/c?d=Jane%20"Doe"]');
    expect(parseCef(renderCef(agentCompleted, product)).ext).toMatchObject({ flexString2: 'tool_call=2,out_of_band=1,canary=3', flexString2Label: 'findingsByProof' });
  });

  it('header newlines become spaces; extension newlines are escaped and read back', () => {
    const weird = { ...started, data: { ...started.data, target_name: 'a|b\\c\nd' } };
    expect(parseCef(renderCef({ ...started, data: { ...started.data, target_name: 'x\r\ny' } }, product)).ext.cs3).toBe('x\r\ny');
    const line = renderCef(weird, { ...product, version: '1|2\\3' });
    const { header, ext } = parseCef(line);
    expect(header[3]).toBe('1|2\\3');
    expect(ext.cs3).toBe('a|b\\c\nd');
    expect(line).toContain('cs3=a|b\\\\c\\nd');
  });

  it('severity follows the event: 1 info, 5 failed, 8 high alert, 1 ping', () => {
    expect(parseCef(renderCef(started, product)).header[6]).toBe('1');
    expect(parseCef(renderCef(failed, product)).header[6]).toBe('5');
    expect(parseCef(renderCef(alert, product)).header[6]).toBe('8');
    expect(parseCef(renderCef(ping, product)).header[6]).toBe('1');
  });

  it('agent.alert carries the session, detector and match', () => {
    const { ext } = parseCef(renderCef(alert, product));
    expect(ext).toEqual({
      rt: String(Date.parse(alert.timestamp)), msg: 'tool_call in session sess-9 matched canary-leak', cat: 'agent.alert', externalId: 'al-1', outcome: 'high',
      cs1: 'sess-9', cs1Label: 'sessionId', cs2: alert.data.target_id, cs2Label: 'targetId', cs3: NASTY, cs3Label: 'targetName',
      cs4: 'canary', cs4Label: 'detector', cs5: 'tool_call', cs5Label: 'kind', cs6: alert.data.alert.matched!, cs6Label: 'matched',
    });
  });

  it.each(ALL.map((e) => [e.event, e] as const))('%s parses strictly', (_n, e) => {
    expect(() => parseCef(renderCef(e, product))).not.toThrow();
  });

  it('the strict reader refuses what the spec forbids', () => {
    expect(() => parseCef('CEF:0|a|b|c|d|e|1|msg=x=y')).toThrow();
    expect(() => parseCef('CEF:0|a|b\\x|c|d|e|1|msg=x')).toThrow();
    expect(() => parseCef('CEF:0|a|b|c|d|e|1|msg=a\\tb')).toThrow();
  });
});
