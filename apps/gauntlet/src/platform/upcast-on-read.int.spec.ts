import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { scanDecider } from '@gauntlet/domain';
import { loadConfig } from '../config/config';
import { createRuntime, type Runtime } from '../runtime';
import { ScanHistory } from '../scans/scan-history';

/**
 * Events are upcast once, where the service reads the log: a finding written in its first shape
 * (one per probe and technique: no fingerprint, no variants, no `how`), appended as it was then,
 * comes out in the current shape to the decider, the projector and the scan's history alike; the
 * audit trail still reads it as written.
 */
describe('a finding recorded in an old shape, read by the service', () => {
  let dir: string;
  let runtime: Runtime;
  const at = '2025-03-01T10:00:00.000Z';
  const metadata = (schemaVersion: number) => ({ correlationId: 'c1', actor: 'worker:w1', occurredAt: at, schemaVersion });
  const v1 = {
    id: 'v1', probe_id: 'pii-001', category: 'LLM02:2025', category_name: 'Sensitive Information Disclosure', title: 'PII leaked (base64)', severity: 'high', confidence: 0.9,
    technique: 'direct', converters: ['base64'], description: 'd', evidence: { prompt: 'p', response: 'r' }, remediation: 'r', references: [], phase: 'probe', found_at: at,
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gauntlet-upcast-'));
    const config = loadConfig({ DATA_DIR: dir, JWT_SECRET: 'x'.repeat(32), SECRETS_KEY: Buffer.alloc(32, 1).toString('base64') });
    runtime = await createRuntime(config, pino({ level: 'silent' }));
    // written as a scanner wrote it in 2025, straight through the adapter: nothing of today's shape added
    await runtime.infra.events.recorded.append('scan-s1', [
      { type: 'ScanRequested', data: { scan_id: 's1', account_id: 'a1', target_id: 't1', target_name: 'bot', profile: 'quick', requested_at: at }, metadata: metadata(1) },
      { type: 'ScanStarted', data: { scan_id: 's1', worker_id: 'w1', started_at: at }, metadata: metadata(1) },
      { type: 'VulnerabilityFound', data: { scan_id: 's1', vulnerability: v1 }, metadata: metadata(1) },
    ], { expectedRevision: 'no_stream' });
  });

  afterEach(async () => {
    await runtime.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const current = {
    fingerprint: 'pii-001:LLM02:2025', how: 'Request sent through base64 (direct).', variants: [], probes: ['pii-001'], conversations: 1, attempt_ids: [], supersedes: [], exposures: [],
  };

  it('the decider folds it with the fingerprint its shape then implied', async () => {
    const state = await runtime.writePath.state(scanDecider, 'scan-s1');
    expect(state.findings).toEqual({ v1: current.fingerprint });
  });

  it('the projector writes its document in the current shape', async () => {
    await runtime.projector.start();
    expect(await runtime.projector.waitFor((await runtime.infra.events.headPosition())!, 10_000)).toBe(true);
    expect(await runtime.infra.documents.collection('vulnerabilities').get('s1:v1')).toMatchObject({ ...v1, ...current });
    expect(await runtime.infra.documents.collection('scans').get('s1')).toMatchObject({ fingerprints: [current.fingerprint] });
  });

  it('the history gives it in the current shape, and the audit trail as written', async () => {
    const history = new ScanHistory(runtime.infra.events);
    expect((await history.record('s1')).vulnerabilities).toEqual([{ ...v1, ...current }]);
    const { events, recorded } = await history.bothWays('s1');
    expect(await history.recorded('s1')).toEqual(recorded);
    expect(events[2].data.vulnerability).toEqual({ ...v1, ...current });
    expect(recorded[2].data.vulnerability).toEqual(v1);
    expect(recorded[2].metadata.schemaVersion).toBe(1);
  });
});
