import { leaked, agentCall, agentCompleted, agentHit, alert, ALL, completed, critical, failed, NASTY, ping, started } from '../../test/fixtures';
import { octetCountedFrame, renderSyslog } from './syslog';

interface Parsed {
  pri: number;
  version: number;
  timestamp: string | null;
  hostname: string | null;
  appName: string | null;
  procId: string | null;
  msgId: string | null;
  sd: { id: string; params: [string, string][] }[];
  bom: boolean;
  msg: string;
}

/** A strict RFC 5424 reader written from the ABNF in section 6; throws on anything it does not allow. */
function parse5424(line: string): Parsed {
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`${why} at ${i}: ${JSON.stringify(line.slice(i, i + 20))}`);
  };
  // a relay that frames records by newline must see one record: no line break anywhere
  if (/[\r\n]/.test(line)) fail('line break inside the record');
  const m = /^<(\d{1,3})>([1-9]\d{0,2}) /.exec(line) ?? fail('bad PRI/VERSION');
  const pri = Number(m[1]);
  if (pri > 191) fail('PRIVAL > 191');
  i = m[0].length;
  const field = (max: number): string | null => {
    const end = line.indexOf(' ', i);
    if (end < 0) fail('header ends early');
    const v = line.slice(i, end);
    if (!/^[\x21-\x7e]+$/.test(v) || v.length > max) fail(`bad header field ${v}`);
    i = end + 1;
    return v === '-' ? null : v;
  };
  const ts = field(64);
  if (ts !== null && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/.test(ts)) fail('bad TIMESTAMP');
  const hostname = field(255);
  const appName = field(48);
  const procId = field(128);
  const msgId = field(32);
  const sd: Parsed['sd'] = [];
  const name = () => {
    const mm = /^[^= \]"\x00-\x20\x7f-\uffff]{1,32}/.exec(line.slice(i)) ?? fail('bad SD-NAME');
    i += mm[0].length;
    return mm[0];
  };
  if (line[i] === '-') i++;
  else {
    while (line[i] === '[') {
      i++;
      const el = { id: name(), params: [] as [string, string][] };
      while (line[i] === ' ') {
        i++;
        const key = name();
        if (line.slice(i, i + 2) !== '="') fail('expected ="');
        i += 2;
        let value = '';
        for (;;) {
          const c = line[i++];
          if (c === undefined) fail('unterminated PARAM-VALUE');
          if (c === '"') break;
          if (c === ']') fail('unescaped ] in PARAM-VALUE');
          if (c === '\\' && ['"', '\\', ']'].includes(line[i])) value += line[i++];
          else value += c;
        }
        el.params.push([key, value]);
      }
      if (line[i++] !== ']') fail('expected ]');
      sd.push(el);
    }
    if (sd.length === 0) fail('no STRUCTURED-DATA');
  }
  let msg = '';
  let bom = false;
  if (i < line.length) {
    if (line[i++] !== ' ') fail('expected SP before MSG');
    msg = line.slice(i);
    if (msg.startsWith('\uFEFF')) {
      bom = true;
      msg = msg.slice(1);
    }
  }
  return { pri, version: Number(m[2]), timestamp: ts, hostname, appName, procId, msgId, sd, bom, msg };
}

const opts = { hostname: 'gauntlet-1.example.com', appName: 'gauntlet', procId: '4242' };
/** what a text with line breaks reads as in a record: `\r` and `\n` as two characters each */
const oneLine = (text: string) => text.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
const params = (p: Parsed) => Object.fromEntries(p.sd[0].params);

describe('syslog format (RFC 5424)', () => {
  it('scan.completed: every header field, SD param and the message read back', () => {
    const p = parse5424(renderSyslog(completed, opts));
    const d = completed.data;
    expect(p).toMatchObject({ pri: 13 * 8 + 2, version: 1, timestamp: completed.timestamp, hostname: opts.hostname, appName: 'gauntlet', procId: '4242', msgId: 'scan.completed', bom: true });
    expect(p.sd).toHaveLength(1);
    expect(p.sd[0].id).toBe('gauntlet@32473');
    expect(params(p)).toEqual({
      id: completed.id, event: 'scan.completed', scan_id: d.scan_id, target_id: d.target_id, target_name: oneLine(NASTY), status: 'completed',
      security_score: '82', security_grade: 'B+', total_findings: '6', critical: '1', high: '2', medium: '1', low: '2', report_url: d.report_url,
    });
    expect(p.msg).toBe(`Gauntlet scan.completed for ${oneLine(NASTY)}: score 82 (B+), 6 findings`);
  });

  it('a scan that leaked: how many values and credentials to rotate as params, what leaked right after the score in the message', () => {
    const p = parse5424(renderSyslog(leaked, opts));
    expect(params(p)).toMatchObject({ exposures: '2', rotate: '1' });
    expect(p.msg).toMatch(/^Gauntlet scan\.completed for .+: score 82 \(B\+\), Leaked 2 values the target holds; rotate 1 credential: records database URL .+postgres:\/\/clinic_admin:\*\*\*@db\.lakeside\.internal, in 4 conversations; rotate it; .+\. 6 findings$/);
  });

  it('vulnerability.critical: severity 2 (critical), finding params, ] " \\ escaped', () => {
    const line = renderSyslog(critical, { ...opts, facility: 10 });
    const p = parse5424(line);
    const v = critical.data.vulnerability!;
    expect(p.pri).toBe(10 * 8 + 2);
    expect(params(p)).toMatchObject({ vulnerability_id: v.id, title: v.title, category: v.category, severity: 'critical', probe_id: v.probe_id, status: 'running' });
    expect(params(p).security_score).toBeUndefined();
    expect(line).toContain('title="System prompt leaked = \\"secret\\" | via \\] roleplay"');
  });

  it('a finding an agent\'s act proves: the kind, the tool and arguments or the request as params, escaped; the proof ends the message', () => {
    const call = parse5424(renderSyslog(agentCall, opts));
    const proof = agentCall.data.vulnerability!.proof!;
    expect(params(call)).toMatchObject({ proof_kind: 'tool_call', proof_tool: 'send_payment', proof_arguments: proof.arguments, findings_by_proof: 'tool_call=1,canary=1' });
    expect(call.msg.endsWith(`. Proof: ${proof.shows}`)).toBe(true);
    const hit = parse5424(renderSyslog(agentHit, opts));
    expect(params(hit)).toMatchObject({ proof_kind: 'out_of_band', proof_method: 'GET', proof_path: '/oob/7f3a/c', proof_query: 'd=Jane%20"Doe"]', proof_at: '2026-11-20T10:03:13.900Z' });
    expect(params(hit)).not.toHaveProperty('proof_host');
    // every fact the kind declares: a lookup's host too
    const lookup = { ...agentHit, data: { ...agentHit.data, vulnerability: { ...agentHit.data.vulnerability!, proof: { kind: 'out_of_band' as const, shows: 'a lookup', method: 'DNS', path: '', host: 'tok.cb.example' } } } };
    expect(params(parse5424(renderSyslog(lookup, opts)))).toMatchObject({ proof_kind: 'out_of_band', proof_method: 'DNS', proof_host: 'tok.cb.example' });
    expect(params(parse5424(renderSyslog(agentCompleted, opts))).findings_by_proof).toBe('tool_call=2,out_of_band=1,canary=3');
  });

  it('severity follows the event and the facility is configurable', () => {
    expect(parse5424(renderSyslog(started, opts)).pri).toBe(13 * 8 + 6);
    expect(parse5424(renderSyslog(failed, opts)).pri).toBe(13 * 8 + 4); // a failed scan is at least medium: Warning
    expect(parse5424(renderSyslog(alert, { ...opts, facility: 4 })).pri).toBe(4 * 8 + 3);
    expect(parse5424(renderSyslog(ping, { ...opts, facility: 23 })).pri).toBe(23 * 8 + 6);
    expect(() => renderSyslog(ping, { facility: 24 })).toThrow(RangeError);
  });

  it('agent.alert carries the alert fields', () => {
    const p = parse5424(renderSyslog(alert, opts));
    const a = alert.data.alert;
    expect(p.msgId).toBe('agent.alert');
    expect(params(p)).toEqual({
      id: alert.id, event: 'agent.alert', target_id: alert.data.target_id, target_name: oneLine(NASTY), alert_id: a.id, session_id: a.session_id, kind: a.kind,
      rule: a.rule, severity: a.severity, detector: a.detector, matched: a.matched, occurred_at: a.occurred_at,
    });
  });

  it('keeps header fields within RFC limits and printable', () => {
    const p = parse5424(renderSyslog(started, { hostname: 'h'.repeat(300), appName: 'app name with spaces'.repeat(5), procId: undefined, enterpriseNumber: 99999 }));
    expect(p.hostname).toHaveLength(255);
    expect(p.appName).toBe('appnamewithspaces'.repeat(5).slice(0, 48));
    expect(p.procId).toBeNull();
    expect(p.sd[0].id).toBe('gauntlet@99999');
  });

  it.each(ALL.map((e) => [e.event, e] as const))('%s parses strictly', (_n, e) => {
    expect(parse5424(renderSyslog(e, opts)).msgId).toBe(e.event);
  });

  it('octet counting frames by UTF-8 bytes, not characters', () => {
    const msg = renderSyslog(completed, opts);
    const frame = octetCountedFrame(msg);
    const sp = frame.indexOf(0x20);
    const len = Number(frame.subarray(0, sp).toString('ascii'));
    expect(len).toBe(Buffer.byteLength(msg, 'utf8'));
    expect(len).toBeGreaterThan(msg.length);
    expect(frame.subarray(sp + 1).toString('utf8')).toBe(msg);
  });
});
