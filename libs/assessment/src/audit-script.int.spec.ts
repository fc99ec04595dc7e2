import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleHistory } from '../testing/sample-history';
import { chainDigest, toAuditNdjson } from './integrity';

/** The verification script auditors copy from docs/compliance.md must keep agreeing with the service. */
describe('docs/compliance.md verification script', () => {
  const doc = readFileSync(join(__dirname, '../../../docs/compliance.md'), 'utf8');
  const script = /<!-- verify-chain\.js[^>]*-->\s*```js\n([\s\S]*?)```/.exec(doc)?.[1];
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-audit-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const history = sampleHistory({ seed: 5, findings: 8 });
  // unicode, nested objects and numbers exercise the canonical form beyond the sample data
  history[1] = { ...history[1], data: { ...(history[1].data as object), note: 'ünï 日本 🚀 "q" \\ \n', n: [1e21, 0.1, -0, 5e-7] } };
  const run = (lines: string, ...args: string[]) => {
    writeFileSync(join(dir, 'verify-chain.js'), script!);
    writeFileSync(join(dir, 'events.ndjson'), lines);
    return spawnSync(process.execPath, [join(dir, 'verify-chain.js'), join(dir, 'events.ndjson'), ...args], { encoding: 'utf8' });
  };

  it('is in the doc', () => expect(script).toBeDefined());

  it('accepts the export and agrees on the digest', () => {
    const r = run(toAuditNdjson(history), chainDigest(history));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`OK: ${history.length} events, chain_sha256 ${chainDigest(history)}`);
  });

  it('names the first bad line of a tampered export', () => {
    const lines = toAuditNdjson(history).trimEnd().split('\n');
    const l = JSON.parse(lines[4]);
    l.data.progress = 99;
    lines[4] = JSON.stringify(l);
    const r = run(lines.join('\n'));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('FAILED at line 5');
  });

  it('catches a dropped tail with the digest from the evidence', () => {
    const lines = toAuditNdjson(history).trimEnd().split('\n').slice(0, -2);
    expect(run(lines.join('\n')).status).toBe(0);
    expect(run(lines.join('\n'), chainDigest(history)).status).toBe(1);
  });

  it('runs with plain node, no dependencies', () => {
    expect(execFileSync(process.execPath, ['--version']).toString()).toMatch(/^v\d+/);
    expect(script).not.toMatch(/require\('(?!crypto'|fs')/);
  });
});
