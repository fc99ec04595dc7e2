import type { RecordedEvent } from '@gauntlet/eventstore';
import { type ScanScore, type Vulnerability } from '@gauntlet/domain';
import { Projection } from './projection';
import { accountsProjection, apiKeysProjection } from './account-projections';
import { scansProjection, vulnerabilitiesProjection } from './scan-projections';
import { targetsProjection } from './target-projections';
import { scanCoverageProjection, triageProjection } from './triage-projections';
import { schedulesProjection } from './schedule-projections';

let position = 0n;
const recorded = (streamId: string, revision: number, type: string, data: unknown): RecordedEvent => ({
  id: `e${++position}`, streamId, revision, position, type, data, metadata: {}, recordedAt: '2026-11-21T10:00:00.000Z',
});

/** given events, then the document a projection holds for one id */
function project<D extends { _id: string }>(projection: Projection<any>, events: RecordedEvent[], id: string): D | null {
  let doc: D | null = null;
  // as the projector does: null writes nothing and the document stays as it was
  for (const e of events) if (projection.documentId(e) === id) doc = projection.apply(doc, e) ?? doc;
  return doc;
}

const now = '2026-11-21T10:00:00.000Z';

describe('account projections', () => {
  const events = [
    recorded('account-a1', 0, 'AccountRegistered', { account_id: 'a1', email: 'ada@example.com', password_hash: 'h', plan: 'free', role: 'member', registered_at: now }),
    recorded('account-a1', 1, 'ApiKeyIssued', { account_id: 'a1', api_key_id: 'k1', name: 'ci', prefix: 'pre', key_hash: 'kh', issued_at: now }),
    recorded('account-a1', 2, 'AccountPlanChanged', { account_id: 'a1', plan: 'pro', previous_plan: 'free' }),
    recorded('account-a1', 3, 'ApiKeyRevoked', { account_id: 'a1', api_key_id: 'k1', revoked_at: now }),
  ];

  it('keeps the account with its current plan', () => {
    expect(project(accountsProjection, events, 'a1')).toEqual({ _id: 'a1', _rev: 3, email: 'ada@example.com', password_hash: 'h', plan: 'pro', role: 'member', registered_at: now });
  });

  it('keeps each API key with its revocation', () => {
    expect(project(apiKeysProjection, events, 'k1')).toEqual({ _id: 'k1', _rev: 3, account_id: 'a1', name: 'ci', prefix: 'pre', key_hash: 'kh', created_at: now, revoked: true, revoked_at: now });
  });
});

describe('targets projection', () => {
  it('applies updates and marks deletion instead of forgetting the target', () => {
    const events = [
      recorded('target-t1', 0, 'TargetRegistered', {
        target_id: 't1', account_id: 'a1', registered_at: now, name: 'bot', url: 'https://x', scan_mode: 'api', api_format: 'openai',
        api_key_encrypted: 'v1.s', model: null, canaries: [], browser: null, http: null, max_requests_per_second: null,
      }),
      recorded('target-t1', 1, 'TargetUpdated', { target_id: 't1', account_id: 'a1', updated_at: '2026-11-22T00:00:00.000Z', changes: { name: 'renamed' } }),
      recorded('target-t1', 2, 'TargetDeleted', { target_id: 't1', account_id: 'a1', deleted_at: '2026-11-23T00:00:00.000Z' }),
    ];
    expect(project(targetsProjection, events, 't1')).toMatchObject({ _id: 't1', name: 'renamed', deleted: true, created_at: now, updated_at: '2026-11-23T00:00:00.000Z', _rev: 2 });
  });
});

describe('scan projections', () => {
  const vuln = (id: string, severity: Vulnerability['severity']) => ({ id, severity, title: id, found_at: now, technique: 't', converters: [], fingerprint: `${id}:LLM01:2025`, supersedes: [], exposures: [] }) as unknown as Vulnerability;
  const score = { overall_score: 55, grade: 'D-' } as ScanScore;
  const events = [
    recorded('scan-s1', 0, 'ScanRequested', { scan_id: 's1', account_id: 'a1', target_id: 't1', target_name: 'bot', profile: 'quick', origin: 'ci', fail_threshold: 70, requested_at: now }),
    recorded('scan-s1', 1, 'ScanStarted', { scan_id: 's1', worker_id: 'w', started_at: now }),
    recorded('scan-s1', 2, 'ScanPhaseEntered', { scan_id: 's1', phase: 'probe', progress: 10, entered_at: now }),
    recorded('scan-s1', 3, 'ProbeAttempted', { scan_id: 's1', attempt: { attempt_id: 'x', phase: 'probe', turns: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 'c' }] }, progress: 40, attempted_at: now }),
    recorded('scan-s1', 4, 'VulnerabilityFound', { scan_id: 's1', vulnerability: vuln('v1', 'critical') }),
    recorded('scan-s1', 5, 'VulnerabilityFound', { scan_id: 's1', vulnerability: vuln('v2', 'low') }),
    recorded('scan-s1', 6, 'ScanCompleted', { scan_id: 's1', score, finished_at: '2026-11-21T10:05:00.000Z' }),
  ];

  it('follows status, phase, progress, findings and the recorded score', () => {
    expect(project(scansProjection, events, 's1')).toEqual({
      _id: 's1', _rev: 6, account_id: 'a1', target_id: 't1', target_name: 'bot', profile: 'quick', origin: 'ci', fail_threshold: 70,
      status: 'completed', phase: 'done', progress: 100, findings_so_far: 2, severity_counts: { critical: 1, high: 0, medium: 0, low: 1 },
      probes_run: 1, requests: { probe: 2 }, created_at: now, started_at: now, finished_at: '2026-11-21T10:05:00.000Z', reason: null, score,
      fingerprints: ['v1:LLM01:2025', 'v2:LLM01:2025'],
    });
  });

  it("keeps the engine's notes about the scan apart from its conversations", () => {
    const note = recorded('scan-s1', 4, 'ProbeAttempted', {
      scan_id: 's1', progress: 41, attempted_at: now,
      attempt: { attempt_id: 'n', probe_id: 'scan-note', phase: 'recon', technique: 'tools-refused', turns: [{ role: 'system', content: 'The target\'s API refused tools.' }], verdict: { outcome: 'resisted' } },
    });
    expect(project<any>(scansProjection, [...events.slice(0, 4), note], 's1')).toMatchObject({ probes_run: 1, requests: { probe: 2 }, notes: ["The target's API refused tools."] });
  });

  it('keeps the budget, the plan, the requests sent as the budget counts them, what was spent and what a budget left unfinished', () => {
    const budget = { max_requests: 40 };
    const plan = { profile: 'quick', requests: { min: 25, likely: 58, max: 166 } };
    const spending = { target: { requests: 40, tokens_sent: 9, tokens_received: 8 }, seconds: 2 };
    const unfinished = { limit: 'max_requests', phases: ['amplify'], categories: ['LLM06:2025'] };
    const doc = project<any>(scansProjection, [
      recorded('scan-s1', 0, 'ScanRequested', { ...events[0].data, budget }),
      events[1],
      recorded('scan-s1', 2, 'ScanPlanned', { scan_id: 's1', plan, planned_at: now }),
      recorded('scan-s1', 3, 'ProbeAttempted', { ...events[3].data, requests_sent: 7 }),
      recorded('scan-s1', 4, 'ProbeAttempted', { ...events[3].data, attempt: { ...events[3].data.attempt, attempt_id: 'y' }, requests_sent: 5 }),
      recorded('scan-s1', 5, 'ScanSpent', { scan_id: 's1', spending, recorded_at: now }),
      recorded('scan-s1', 6, 'ScanCompletedPartial', { scan_id: 's1', reason: 'stopped at its budget', score, finished_at: now, coverage: 0.4, unfinished }),
    ], 's1');
    // writes may land out of order: the count never goes down
    expect(doc).toMatchObject({ budget, plan, requests_sent: 7, spending, unfinished, status: 'completed_partial', reason: 'stopped at its budget' });
  });

  it('shows status and phase of a running scan', () => {
    expect(project<any>(scansProjection, events.slice(0, 4), 's1')).toMatchObject({ status: 'running', phase: 'probe', progress: 40, findings_so_far: 0 });
  });

  it('counts findings as the attempts that proved them recorded the count, and the recorded findings only catch the count up', () => {
    const attempted = (revision: number, findings_so_far?: number) =>
      recorded('scan-s1', revision, 'ProbeAttempted', { scan_id: 's1', attempt: { attempt_id: `a${revision}`, phase: 'probe', turns: [] }, progress: 40, attempted_at: now, ...(findings_so_far !== undefined && { findings_so_far }) });
    const live = [...events.slice(0, 3), attempted(3, 1), attempted(4, 2)];
    expect(project<any>(scansProjection, live, 's1').findings_so_far).toBe(2);
    // the scanner's estimate of the time left, with when it was made
    const estimated = recorded('scan-s1', 5, 'ProbeAttempted', { scan_id: 's1', attempt: { attempt_id: 'a5', phase: 'probe', turns: [] }, progress: 40, attempted_at: now, seconds_left: 120 });
    expect(project<any>(scansProjection, [...live, estimated], 's1')).toMatchObject({ seconds_left: 120, seconds_left_at: now });
    // the weaknesses themselves, as the attempts that proved them named them, once each
    const weakness = (fingerprint: string) => ({ fingerprint, probe_id: 'p', category: 'LLM01:2025', category_name: 'Prompt Injection', title: 'T' });
    const proving = (revision: number, fps: string[]) =>
      recorded('scan-s1', revision, 'ProbeAttempted', { scan_id: 's1', attempt: { attempt_id: `a${revision}`, phase: 'probe', turns: [] }, progress: 40, attempted_at: now, findings_so_far: fps.length, proved: fps.map(weakness) });
    const doc = project<any>(scansProjection, [...events.slice(0, 3), proving(3, ['f1']), proving(4, ['f1', 'f2'])], 's1');
    expect(doc.proven.map((p: any) => p.fingerprint)).toEqual(['f1', 'f2']);
    expect(doc.proven[0]).toMatchObject({ title: 'T', proven_at: now });
    const ended = [...live, recorded('scan-s1', 5, 'VulnerabilityFound', { scan_id: 's1', vulnerability: vuln('v1', 'critical') }), recorded('scan-s1', 6, 'VulnerabilityFound', { scan_id: 's1', vulnerability: vuln('v2', 'low') })];
    const counts = ended.map((_, i) => project<any>(scansProjection, ended.slice(0, i + 1), 's1').findings_so_far);
    expect(counts.slice(3)).toEqual([1, 2, 2, 2]);
  });

  it('keeps one document per vulnerability, keyed by scan', () => {
    expect(project(vulnerabilitiesProjection, events, 's1:v1')).toEqual({ ...vuln('v1', 'critical'), _id: 's1:v1', _rev: 4, scan_id: 's1' });
  });

  it('keeps the regressions recorded after the scan finished', () => {
    const regressed = recorded('scan-s1', 7, 'ScanRegressed', { scan_id: 's1', target_id: 't1', detected_at: now, reason: 'score_drop', fingerprints: [], score: 55, previous_score: 80 });
    expect(project<any>(scansProjection, [...events, regressed], 's1')).toMatchObject({ _rev: 7, status: 'completed', regressions: [{ reason: 'score_drop', score: 55, previous_score: 80, fingerprints: [], detected_at: now }] });
  });

  it('counts out-of-band hits and lists those that came after the scan ended, its score and status as they were', () => {
    const hit = (at: string) => ({ scan_id: 's1', attempt_id: 'x', token: 'tok', method: 'GET', path: '', query: 'customer=Jo', source: '203.0.113.9', at });
    const during = recorded('scan-s1', 6, 'OutOfBandHit', { scan_id: 's1', hit: hit(now), after_scan: false });
    const late = Array.from({ length: 25 }, (_, i) => recorded('scan-s1', 8 + i, 'OutOfBandHit', { scan_id: 's1', hit: hit(`2026-11-21T11:00:${String(i).padStart(2, '0')}.000Z`), after_scan: true }));
    const doc = project<any>(scansProjection, [...events.slice(0, 6), during, { ...events[6], revision: 7 }, ...late], 's1');
    expect(doc).toMatchObject({ status: 'completed', score, callback_hits: { total: 26, after_scan: 25 } });
    expect(doc.callback_hits.late).toHaveLength(20);
    expect(doc.callback_hits.late.at(-1)).toEqual({ attempt_id: 'x', method: 'GET', path: '', query: 'customer=Jo', source: '203.0.113.9', at: '2026-11-21T11:00:24.000Z' });
  });

  it('records why a scan failed or was cancelled', () => {
    const failed = [...events.slice(0, 2), recorded('scan-s1', 2, 'ScanFailed', { scan_id: 's1', reason: 'target never answered', finished_at: now })];
    expect(project(scansProjection, failed, 's1')).toMatchObject({ status: 'failed', phase: 'done', reason: 'target never answered' });
    const cancelled = [events[0], recorded('scan-s1', 1, 'ScanCancelled', { scan_id: 's1', cancelled_by: 'account:a1', finished_at: now })];
    expect(project(scansProjection, cancelled, 's1')).toMatchObject({ status: 'cancelled', reason: 'cancelled by account:a1', cancelled_by: 'account:a1' });
  });
});

describe('triage projection', () => {
  const decided = (revision: number, state: string, fingerprint = 'pi-001:LLM01:2025') =>
    recorded('target-t1', revision, 'FindingTriaged', { target_id: 't1', account_id: 'a1', fingerprint, state, reason: 'r', by: 'account:a1', at: now, expires_at: null, scan_id: 's1', vulnerability_id: 'v1' });

  it('keeps the latest decision per fingerprint of a target', () => {
    const events = [decided(3, 'false_positive'), decided(4, 'accepted_risk', 'pi-002:LLM01:2025'), decided(5, 'open')];
    expect(project(triageProjection, events, 't1:pi-001:LLM01:2025')).toMatchObject({ target_id: 't1', state: 'open', _rev: 5 });
    expect(project(triageProjection, events, 't1:pi-002:LLM01:2025')).toMatchObject({ state: 'accepted_risk', _rev: 4 });
  });
});

describe('scan coverage projection', () => {
  const attempt = (revision: number, probe_id: string, phase = 'probe', outcome = 'resisted') =>
    recorded('scan-s1', revision, 'ProbeAttempted', { scan_id: 's1', attempt: { attempt_id: `x${revision}`, probe_id, phase, turns: [], verdict: { outcome } }, progress: 1, attempted_at: now });

  it('lists each probe the scan got an answer to once; recon and errors test nothing', () => {
    const events = [attempt(1, 'recon-1', 'recon'), attempt(2, 'pi-001'), attempt(3, 'pi-001', 'amplify', 'vulnerable'), attempt(4, 'pi-002', 'probe', 'error'), attempt(5, 'pi-003')];
    expect(project(scanCoverageProjection, events, 's1')).toEqual({ _id: 's1', _rev: 5, probes: ['pi-001', 'pi-003'] });
  });
});

describe('schedules projection', () => {
  const created = recorded('schedule-sc1', 0, 'ScheduleCreated', { schedule_id: 'sc1', account_id: 'a1', target_id: 't1', tag: null, cron: '0 3 * * *', timezone: 'Europe/Paris', profile: 'quick', catch_up: 'skip', paused: false, created_at: '2026-11-20T12:00:00.000Z' });
  const fired = recorded('schedule-sc1', 1, 'ScheduledScanFired', { schedule_id: 'sc1', account_id: 'a1', due_at: '2026-11-21T02:00:00.000Z', fired_at: '2026-11-21T02:00:01.000Z', missed: 0, profile: 'quick', scans: [{ target_id: 't1', scan_id: 's9' }], skipped: [] });
  const paused = recorded('schedule-sc1', 2, 'SchedulePaused', { schedule_id: 'sc1', account_id: 'a1', paused_at: '2026-11-21T05:00:00.000Z' });

  it('shows the next due time from the recorded time table, the latest firing, and none while paused', () => {
    expect(project<any>(schedulesProjection, [created], 'sc1')).toMatchObject({ cron: '0 3 * * *', next_due_at: '2026-11-21T02:00:00.000Z', last_firing: null, paused: false });
    expect(project<any>(schedulesProjection, [created, fired], 'sc1')).toMatchObject({ next_due_at: '2026-11-22T02:00:00.000Z', last_firing: { due_at: '2026-11-21T02:00:00.000Z', scans: [{ scan_id: 's9' }] } });
    expect(project<any>(schedulesProjection, [created, fired, paused], 'sc1')).toMatchObject({ paused: true, next_due_at: null, updated_at: '2026-11-21T05:00:00.000Z' });
  });

  it('reads a schedule recorded without a trigger as a cron schedule, and shows a deploy schedule\'s firing with its deploy', () => {
    expect(project<any>(schedulesProjection, [created], 'sc1')).toMatchObject({ trigger: 'cron' });
    const onDeploy = recorded('schedule-sc2', 0, 'ScheduleCreated', { schedule_id: 'sc2', account_id: 'a1', target_id: null, tag: 'prod', trigger: 'deploy', cron: null, timezone: null, profile: 'quick', catch_up: null, paused: false, created_at: '2026-11-20T12:00:00.000Z' });
    const deploy = { deploy_id: 'build-9', environment: 'production', version: null };
    const firedOnDeploy = recorded('schedule-sc2', 1, 'ScheduledScanFired', { schedule_id: 'sc2', account_id: 'a1', due_at: '2026-11-21T09:00:00.000Z', fired_at: '2026-11-21T09:00:00.000Z', missed: 0, profile: 'quick', scans: [{ target_id: 't1', scan_id: 's10' }], skipped: [], deploy });
    expect(project<any>(schedulesProjection, [onDeploy], 'sc2')).toMatchObject({ trigger: 'deploy', cron: null, timezone: null, catch_up: null, next_due_at: null });
    expect(project<any>(schedulesProjection, [onDeploy, firedOnDeploy], 'sc2')).toMatchObject({ next_due_at: null, last_firing: { deploy, scans: [{ scan_id: 's10' }] }, state: { deploys: {} } });
  });
});
