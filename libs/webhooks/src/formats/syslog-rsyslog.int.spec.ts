import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { alert, completed, critical, failed, NASTY, regressed } from '../../test/fixtures';
import { renderSyslog } from './syslog';
import { SyslogTcpSender } from './syslog-tcp';

/** the real receiver: Debian's rsyslog (`apt-get install -y rsyslog`), started on a loopback port with our own config */
const RSYSLOGD = ['/usr/sbin/rsyslogd', '/sbin/rsyslogd'].find((p) => existsSync(p));
const missing = RSYSLOGD ? null : 'rsyslogd is not installed (apt-get install -y rsyslog)';
if (missing) console.log(`skipping the rsyslog interop spec: ${missing}`);
const maybe = missing ? describe.skip : describe;

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

const opts = { hostname: 'gauntlet-1.example.com', appName: 'gauntlet', procId: '4242' };
// the fixtures' target name carries CR/LF, which a line-oriented output file cannot show as-is: use names without them
const named = <T extends { data: { target_name: string } }>(e: T, target_name: string): T => ({ ...e, data: { ...e.data, target_name } });

maybe('syslog over TCP into a real rsyslog (RFC 6587 octet counting)', () => {
  let dir: string;
  let daemon: ChildProcess;
  let port: number;
  let out: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gauntlet-rsyslog-'));
    port = await freePort();
    out = join(dir, 'out.jsonl');
    const conf = join(dir, 'rsyslog.conf');
    writeFileSync(conf, `
global(workDirectory="${dir}" parser.escapeControlCharactersOnReceive="off")
module(load="imtcp")
template(name="fields" type="list" option.jsonf="on") {
  property(outname="pri" name="pri" format="jsonf")
  property(outname="facility" name="syslogfacility" format="jsonf")
  property(outname="severity" name="syslogseverity" format="jsonf")
  property(outname="protocol_version" name="protocol-version" format="jsonf")
  property(outname="timereported" name="timereported" dateFormat="rfc3339" format="jsonf")
  property(outname="hostname" name="hostname" format="jsonf")
  property(outname="app_name" name="app-name" format="jsonf")
  property(outname="procid" name="procid" format="jsonf")
  property(outname="msgid" name="msgid" format="jsonf")
  property(outname="structured_data" name="structured-data" format="jsonf")
  property(outname="msg" name="msg" format="jsonf")
}
ruleset(name="gauntlet") { action(type="omfile" file="${out}" template="fields") }
input(type="imtcp" port="${port}" address="127.0.0.1" ruleset="gauntlet")
`);
    const check = spawnSync(RSYSLOGD!, ['-N1', '-f', conf], { encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`rsyslog rejected the config: ${check.stderr}${check.stdout}`);
    daemon = spawn(RSYSLOGD!, ['-n', '-f', conf, '-i', join(dir, 'rsyslogd.pid')], { stdio: ['ignore', 'ignore', 'pipe'] });
    // ready when the port accepts connections (bounded)
    for (let i = 0; i < 100; i++) {
      const ok = await new Promise<boolean>((resolve) => {
        const s = require('node:net').connect(port, '127.0.0.1');
        s.once('connect', () => (s.destroy(), resolve(true)));
        s.once('error', () => resolve(false));
      });
      if (ok) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('rsyslogd did not start listening');
  });

  afterAll(async () => {
    if (daemon && daemon.exitCode === null) {
      daemon.kill('SIGTERM');
      await new Promise((r) => daemon.once('exit', r));
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('rsyslog reads every field we wrote', async () => {
    const envelopes = [named(completed, 'Support bot | "prod" [eu] \\ é中'), named(critical, 'Support bot'), named(alert, 'Agent é'), named(regressed, 'Support bot')];
    const lines = envelopes.map((e, i) => renderSyslog(e, { ...opts, facility: i === 2 ? 10 : undefined }));
    const sender = new SyslogTcpSender({ host: '127.0.0.1', port }, { allowPrivate: true });
    for (const l of lines) await sender.send(l);
    await sender.close();

    let got: any[] = [];
    for (let i = 0; i < 100 && got.length < lines.length; i++) {
      await new Promise((r) => setTimeout(r, 50));
      got = existsSync(out) ? readFileSync(out, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
    }
    expect(got).toHaveLength(lines.length);
    got.forEach((r, i) => {
      const line = lines[i];
      const pri = Number(/^<(\d+)>/.exec(line)![1]);
      const sd = line.slice(line.indexOf(' [') + 1, line.indexOf('] \uFEFF') + 1);
      expect(r).toMatchObject({
        pri: String(pri), facility: String(pri >> 3), severity: String(pri & 7), protocol_version: '1', hostname: opts.hostname, app_name: 'gauntlet', procid: '4242',
        msgid: envelopes[i].event, structured_data: sd,
      });
      expect(Date.parse(r.timereported)).toBe(Date.parse(envelopes[i].timestamp));
      expect(r.msg.replace(/^\uFEFF/, '')).toBe(line.slice(line.indexOf('] \uFEFF') + 3));
    });
    expect(got[2].facility).toBe('10');
  });

  it('a relay that frames records by newline gets one record per event, even when the text held line breaks', async () => {
    const before = existsSync(out) ? readFileSync(out, 'utf8').trim().split('\n').filter(Boolean).length : 0;
    const envelopes = [named(completed, NASTY), named(failed, `two\nlines\r\nand a "quote"`), { ...critical, data: { ...critical.data, target_name: NASTY, vulnerability: { ...critical.data.vulnerability!, title: 'line one\nline two' } } }];
    const lines = envelopes.map((e) => renderSyslog(e, opts));
    for (const l of lines) expect(l).not.toMatch(/[\r\n]/);
    // RFC 6587 non-transparent framing: each record ends at LF, as many relays forward them
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(lines.map((l) => l + '\n').join(''), () => resolve()));
      socket.once('error', reject);
    });
    let got: any[] = [];
    for (let i = 0; i < 100 && got.length < lines.length; i++) {
      await new Promise((r) => setTimeout(r, 50));
      got = existsSync(out) ? readFileSync(out, 'utf8').trim().split('\n').filter(Boolean).slice(before).map((l) => JSON.parse(l)) : [];
    }
    await new Promise((r) => setTimeout(r, 200)); // a split record would show up as extra ones
    got = readFileSync(out, 'utf8').trim().split('\n').filter(Boolean).slice(before).map((l) => JSON.parse(l));
    expect(got).toHaveLength(lines.length);
    got.forEach((r, i) => {
      const line = lines[i];
      expect(r).toMatchObject({ msgid: envelopes[i].event, hostname: opts.hostname, structured_data: line.slice(line.indexOf(' [') + 1, line.indexOf('] \uFEFF') + 1) });
      expect(r.msg.replace(/^\uFEFF/, '')).toBe(line.slice(line.indexOf('] \uFEFF') + 3));
    });
    expect(got[1].structured_data).toContain('target_name="two\\nlines\\r\\nand a \\"quote\\""');
  });

  it('the sender refuses loopback unless the policy allows it', async () => {
    const sender = new SyslogTcpSender({ host: '127.0.0.1', port }, { allowPrivate: false });
    await expect(sender.send('x')).rejects.toThrow(/loopback|private/);
  });
});
