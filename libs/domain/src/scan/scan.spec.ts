import { spec } from '@gauntlet/testing';
import { fold } from '../decider';
import { gradeLabel, MAX_HITS_PER_TOKEN, partialCoverage, scanDecider, ScanEvent } from './scan';
import { upcastEvent } from '../upcasts';
import { ProbeAttempt, ScanScore, Vulnerability } from './vulnerability';
import type { RequestPlan } from './request-plan';

const now = '2026-11-21T10:00:00.000Z';
const requested: ScanEvent = {
  type: 'ScanRequested',
  schemaVersion: 1,
  data: { scan_id: 's1', account_id: 'a1', target_id: 't1', target_name: 'bot', profile: 'standard', origin: 'api', fail_threshold: null, requested_at: now },
};
const started: ScanEvent = { type: 'ScanStarted', schemaVersion: 1, data: { scan_id: 's1', worker_id: 'w1', started_at: now } };
const phase = (p: 'recon' | 'probe' | 'amplify', progress: number): ScanEvent => ({ type: 'ScanPhaseEntered', schemaVersion: 1, data: { scan_id: 's1', phase: p, progress, entered_at: now } });
const score: ScanScore = { overall_score: 80, grade: 'B-', category_scores: {}, critical_count: 0, high_count: 1, medium_count: 0, low_count: 0, scoring_version: 'test' };
const attempt = (id: string): ProbeAttempt => ({
  attempt_id: id, probe_id: 'pi-001', category: 'LLM01:2025', technique: 'direct', converters: [], phase: 'probe',
  turns: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }],
  verdict: { detector: 'canary', outcome: 'resisted', matched: null, confidence: 0.9 }, latency_ms: 12,
});
const vuln = { id: 'v1', severity: 'high' } as Vulnerability;

describe('scan decider', () => {
  const request = {
    type: 'RequestScan' as const, scan_id: 's1', account_id: 'a1', target_id: 't1', profile: 'standard' as const, origin: 'api' as const, fail_threshold: null, now,
    target: { account_id: 'a1', name: 'bot', deleted: false },
  };

  it('a finished scan records each regression reason once; an unfinished one cannot regress', () => {
    const completed: ScanEvent = { type: 'ScanCompleted', schemaVersion: 1, data: { scan_id: 's1', score, finished_at: now } };
    const regression = { reason: 'score_drop' as const, fingerprints: [], score: 60, previous_score: 80 };
    const regressed: ScanEvent = { type: 'ScanRegressed', schemaVersion: 1, data: { scan_id: 's1', target_id: 't1', detected_at: now, ...regression } };
    spec(scanDecider).given([requested, started, completed]).when({ type: 'RecordRegression', regression, now }).then([regressed]);
    spec(scanDecider).given([requested, started, completed, regressed]).when({ type: 'RecordRegression', regression, now }).then([]);
    spec(scanDecider).given([requested, started]).when({ type: 'RecordRegression', regression, now }).thenFails('conflict');
  });

  describe('out-of-band hits', () => {
    const hit = (token = 'tok1') => ({ scan_id: 's1', attempt_id: 'at1', token, method: 'GET', path: '', source: '203.0.113.9', at: now });
    const recorded = (after_scan: boolean, token = 'tok1'): ScanEvent => ({ type: 'OutOfBandHit', schemaVersion: 1, data: { scan_id: 's1', hit: hit(token), after_scan } });
    const completed: ScanEvent = { type: 'ScanCompleted', schemaVersion: 1, data: { scan_id: 's1', score, finished_at: now } };

    it('are recorded while the scan runs, and after it ended (marked so: no finding or score includes them)', () => {
      spec(scanDecider).given([requested, started]).when({ type: 'RecordOutOfBandHit', hit: hit() }).then([recorded(false)]);
      spec(scanDecider).given([requested, started, completed]).when({ type: 'RecordOutOfBandHit', hit: hit() }).then([recorded(true)]);
      spec(scanDecider).given([requested]).when({ type: 'RecordOutOfBandHit', hit: hit() }).then([recorded(false)]);
    });

    it('are recorded only on a scan that exists, and only its own', () => {
      spec(scanDecider).given([]).when({ type: 'RecordOutOfBandHit', hit: hit() }).thenFails('not_found');
      spec(scanDecider).given([requested, started]).when({ type: 'RecordOutOfBandHit', hit: { ...hit(), scan_id: 's2' } }).thenFails('conflict');
    });

    it('are bounded per planted address: a burst adds at most MAX_HITS_PER_TOKEN events, another address still counts', () => {
      const burst = Array.from({ length: MAX_HITS_PER_TOKEN }, () => recorded(false));
      spec(scanDecider).given([requested, started, ...burst]).when({ type: 'RecordOutOfBandHit', hit: hit() }).then([]);
      spec(scanDecider).given([requested, started, ...burst]).when({ type: 'RecordOutOfBandHit', hit: hit('tok2') }).then([recorded(false, 'tok2')]);
    });

    it('share one bound across the spellings of one address: a path, a host name and a lookup of it count together', () => {
      const spelled = (token: string) => ({ ...hit(token), address: 'tok1' });
      const burst: ScanEvent[] = Array.from({ length: MAX_HITS_PER_TOKEN }, (_, i) => ({ type: 'OutOfBandHit', schemaVersion: 1, data: { scan_id: 's1', hit: spelled(i % 2 ? 'tok1' : 'labels.of.tok1'), after_scan: false } }));
      spec(scanDecider).given([requested, started, ...burst]).when({ type: 'RecordOutOfBandHit', hit: spelled('labels.of.tok1') }).then([]);
      // a hit recorded before the address was kept counts against its token, which was the address's path spelling
      spec(scanDecider).given([requested, started, ...burst.slice(1), recorded(false)]).when({ type: 'RecordOutOfBandHit', hit: spelled('tok1') }).then([]);
    });
  });

  it('a requested scan is pending; requesting the same id again is a retry', () => {
    spec(scanDecider).given([]).when(request).then([requested]);
    spec(scanDecider).given([requested]).when(request).then([]);
  });

  it("only the account's own live target can be scanned: another account's, a deleted or an absent one answer as not found", () => {
    spec(scanDecider).given([]).when({ ...request, target: { account_id: 'a2', name: 'bot', deleted: false } }).thenFails('not_found', /Target not found/);
    spec(scanDecider).given([]).when({ ...request, target: { account_id: 'a1', name: 'bot', deleted: true } }).thenFails('not_found');
    spec(scanDecider).given([]).when({ ...request, target: null }).thenFails('not_found');
  });

  it('a scan limited to some categories or probes records which, so the scanner and an auditor see the same plan', () => {
    const selection = { categories: ['LLM01:2025'], probes: ['pl-001'] };
    spec(scanDecider).given([]).when({ ...request, selection }).then([{ ...requested, data: { ...requested.data, selection } } as ScanEvent]);
  });

  describe('a budget, a plan and what was spent', () => {
    const budget = { max_requests: 40, price_in: 0.15, price_out: 0.6 };
    const budgeted: ScanEvent = { ...requested, data: { ...requested.data, budget } } as ScanEvent;
    const plan = { profile: 'quick', requests: { min: 25, likely: 58, max: 166 } } as unknown as RequestPlan;
    const planned: ScanEvent = { type: 'ScanPlanned', schemaVersion: 1, data: { scan_id: 's1', plan, planned_at: now } };
    const unfinished = { limit: 'max_requests' as const, phases: ['amplify'], categories: ['LLM01:2025'] };
    const spending = { target: { requests: 40, tokens_sent: 10, tokens_received: 20 }, seconds: 3 };

    it('a scan request records its budget, checked by its owner', () => {
      spec(scanDecider).given([]).when({ ...request, budget }).then([budgeted]);
      spec(scanDecider).given([]).when({ ...request, budget: { max_cost: 1 } }).thenFails('invalid', /max_cost needs price_in and price_out/);
      spec(scanDecider).given([]).when({ ...request, budget: { max_requests: 0 } }).thenFails('invalid', /max_requests must be at least 1/);
    });

    it('the plan is recorded once, while the scan runs', () => {
      spec(scanDecider).given([budgeted, started]).when({ type: 'RecordPlan', plan, now }).then([planned]);
      spec(scanDecider).given([budgeted, started, planned]).when({ type: 'RecordPlan', plan, now }).then([]);
      spec(scanDecider).given([budgeted]).when({ type: 'RecordPlan', plan, now }).thenFails('conflict');
    });

    it('a scan that reached its budget ends partial, "stopped at its budget", with what it did not finish; only a scan with that limit can', () => {
      spec(scanDecider).given([budgeted, started, phase('amplify', 40)]).when({ type: 'StopAtBudget', unfinished, score, now }).then([
        { type: 'ScanCompletedPartial', schemaVersion: 2, data: { scan_id: 's1', reason: 'stopped at its budget', score, finished_at: now, coverage: 0.4, unfinished } },
      ]);
      spec(scanDecider).given([requested, started]).when({ type: 'StopAtBudget', unfinished, score, now }).thenFails('conflict', /no max_requests/);
      spec(scanDecider).given([budgeted, started]).when({ type: 'StopAtBudget', unfinished: { ...unfinished, limit: 'max_tokens' }, score, now }).thenFails('conflict');
    });

    it('what the scan spent is recorded once its run is over, whatever ended it', () => {
      const spent: ScanEvent = { type: 'ScanSpent', schemaVersion: 1, data: { scan_id: 's1', spending, recorded_at: now } };
      const cancelled: ScanEvent = { type: 'ScanCancelled', schemaVersion: 1, data: { scan_id: 's1', cancelled_by: 'account:a1', finished_at: now } };
      spec(scanDecider).given([budgeted, started]).when({ type: 'RecordSpending', spending, now }).then([spent]);
      spec(scanDecider).given([budgeted, started, cancelled]).when({ type: 'RecordSpending', spending, now }).then([spent]);
      spec(scanDecider).given([budgeted, started, spent]).when({ type: 'RecordSpending', spending, now }).then([]);
      spec(scanDecider).given([budgeted]).when({ type: 'RecordSpending', spending, now }).thenFails('conflict');
    });
  });

  it("the scan carries the target's name as its stream knows it", () => {
    const [e] = spec(scanDecider).given([]).when({ ...request, target: { account_id: 'a1', name: 'renamed bot', deleted: false } }).thenEvents();
    expect(e.data).toMatchObject({ target_id: 't1', target_name: 'renamed bot' });
  });

  it('one worker claims a pending scan; a second worker is refused; the same worker again is a no-op', () => {
    spec(scanDecider).given([requested]).when({ type: 'StartScan', worker_id: 'w1', now }).then([started]);
    spec(scanDecider).given([requested, started]).when({ type: 'StartScan', worker_id: 'w2', now }).thenFails('conflict');
    spec(scanDecider).given([requested, started]).when({ type: 'StartScan', worker_id: 'w1', now }).then([]);
  });

  it('the running count of findings an attempt carries never goes down', () => {
    const counted = (id: string, findings_so_far: number): ScanEvent => ({ type: 'ProbeAttempted', schemaVersion: 1, data: { scan_id: 's1', attempt: attempt(id), progress: 10, attempted_at: now, findings_so_far } });
    spec(scanDecider).given([requested, started]).when({ type: 'RecordProbeAttempt', attempt: attempt('x1'), progress: 10, now, findings_so_far: 3 }).then([counted('x1', 3)]);
    spec(scanDecider).given([requested, started, counted('x1', 3)]).when({ type: 'RecordProbeAttempt', attempt: attempt('x2'), progress: 10, now, findings_so_far: 2 }).then([counted('x2', 3)]);
  });

  it("an attempt carries the scanner's estimate of the time left, whole seconds and never below zero", () => {
    const estimated = (seconds_left: number): ScanEvent => ({ type: 'ProbeAttempted', schemaVersion: 1, data: { scan_id: 's1', attempt: attempt('x1'), progress: 10, attempted_at: now, seconds_left } });
    spec(scanDecider).given([requested, started]).when({ type: 'RecordProbeAttempt', attempt: attempt('x1'), progress: 10, now, seconds_left: 94.6 }).then([estimated(95)]);
    spec(scanDecider).given([requested, started]).when({ type: 'RecordProbeAttempt', attempt: attempt('x1'), progress: 10, now, seconds_left: -3 }).then([estimated(0)]);
  });

  it('phases only move forward, and progress never goes down', () => {
    spec(scanDecider).given([requested, started, phase('recon', 2), phase('probe', 10)]).when({ type: 'EnterPhase', phase: 'recon', progress: 50, now }).thenFails('conflict');
    spec(scanDecider)
      .given([requested, started, phase('recon', 2), phase('probe', 40)])
      .when({ type: 'EnterPhase', phase: 'amplify', progress: 30, now })
      .then([phase('amplify', 40)]);
  });

  it('the done phase is reached only by ending the scan', () => {
    spec(scanDecider).given([requested, started]).when({ type: 'EnterPhase', phase: 'done', progress: 100, now }).thenFails('conflict');
  });

  it('records probe attempts with monotonic, clamped progress, once per attempt id', () => {
    const [e] = spec(scanDecider).given([requested, started, phase('probe', 50)]).when({ type: 'RecordProbeAttempt', attempt: attempt('x1'), progress: 20, now }).thenEvents();
    expect(e).toMatchObject({ type: 'ProbeAttempted', data: { progress: 50 } });
    const [high] = spec(scanDecider).given([requested, started]).when({ type: 'RecordProbeAttempt', attempt: attempt('x1'), progress: 250, now }).thenEvents();
    expect(high.data).toMatchObject({ progress: 100 });
    const recorded: ScanEvent = { type: 'ProbeAttempted', schemaVersion: 1, data: { scan_id: 's1', attempt: attempt('x1'), progress: 5, attempted_at: now } };
    spec(scanDecider).given([requested, started, recorded]).when({ type: 'RecordProbeAttempt', attempt: attempt('x1'), progress: 6, now }).then([]);
  });

  it('records each vulnerability once', () => {
    const found: ScanEvent = { type: 'VulnerabilityFound', schemaVersion: 3, data: { scan_id: 's1', vulnerability: vuln } };
    spec(scanDecider).given([requested, started]).when({ type: 'RecordVulnerability', vulnerability: vuln }).then([found]);
    spec(scanDecider).given([requested, started, found]).when({ type: 'RecordVulnerability', vulnerability: vuln }).then([]);
  });

  it('keeps what a triage decision needs from the log: the target, when it was requested, each finding\'s fingerprint', () => {
    const v2 = { id: 'v2', probe_id: 'pi-002', category: 'LLM01:2025', technique: 't', converters: [], fingerprint: 'fp-recorded' } as unknown as Vulnerability;
    // recorded before findings had fingerprints: read as the store reads every event (upcastEvent), it has the one derived from its probe and category
    const v1 = { id: 'v1', probe_id: 'pii-001', category: 'LLM02:2025', technique: 't', converters: [] } as unknown as Vulnerability;
    const found = (v: Vulnerability, schemaVersion: number): ScanEvent => upcastEvent({ type: 'VulnerabilityFound', schemaVersion, data: { scan_id: 's1', vulnerability: v } });
    // one finding per weakness, superseding the probe-and-category fingerprints of its instances
    const v3 = { id: 'v3', probe_id: 'sid-001', category: 'LLM02:2025', technique: 't', converters: [], fingerprint: 'LLM02:2025:person:h1', supersedes: ['sid-001:LLM02:2025'] } as unknown as Vulnerability;
    const state = fold(scanDecider, [requested, started, found(v2, 2), found(v1, 1), found(v3, 3)]);
    expect(state).toMatchObject({ target_id: 't1', requested_at: now, findings: { v2: 'fp-recorded', v1: 'pii-001:LLM02:2025', v3: 'LLM02:2025:person:h1' }, supersedes: { v3: ['sid-001:LLM02:2025'] } });
  });

  it('a pending scan cannot record work: it must be claimed first', () => {
    spec(scanDecider).given([requested]).when({ type: 'RecordVulnerability', vulnerability: vuln }).thenFails('conflict', /pending/);
  });

  it('completes, completes partially or fails from running, recording the score', () => {
    spec(scanDecider).given([requested, started]).when({ type: 'CompleteScan', score, now }).then([{ type: 'ScanCompleted', schemaVersion: 1, data: { scan_id: 's1', score, finished_at: now } }]);
    spec(scanDecider)
      .given([requested, started])
      .when({ type: 'CompleteScanPartially', reason: 'target stopped answering', score, now })
      .then([{ type: 'ScanCompletedPartial', schemaVersion: 2, data: { scan_id: 's1', reason: 'target stopped answering', score, finished_at: now, coverage: 0 } }]);
    spec(scanDecider).given([requested, started]).when({ type: 'FailScan', reason: 'no answer', now }).then([{ type: 'ScanFailed', schemaVersion: 1, data: { scan_id: 's1', reason: 'no answer', finished_at: now } }]);
  });

  it('a partial scan records the share of the plan that ran: the progress it had when it stopped', () => {
    spec(scanDecider)
      .given([requested, started, phase('probe', 21)])
      .when({ type: 'CompleteScanPartially', reason: 'target stopped answering', score, now })
      .then([{ type: 'ScanCompletedPartial', schemaVersion: 2, data: { scan_id: 's1', reason: 'target stopped answering', score, finished_at: now, coverage: 0.21 } }]);
  });

  it('a version 1 partial ending, which recorded no coverage, reads as the progress before it; version 2 as recorded', () => {
    expect(partialCoverage({}, 21)).toBe(0.21);
    expect(partialCoverage({}, null)).toBeNull();
    expect(partialCoverage({ coverage: 0.4 }, 90)).toBe(0.4);
  });

  it("a partial scan's grade is never shown without its mark and coverage", () => {
    expect(gradeLabel('A+', { partial: true, coverage: 0.21 })).toBe('A+ (partial: 21% of the plan ran)');
    expect(gradeLabel('A+', { partial: true, coverage: null })).toBe('A+ (partial scan)');
    expect(gradeLabel('B', { partial: false, coverage: 1 })).toBe('B');
  });

  it('a pending scan can fail (target gone before any worker got to it) but cannot complete', () => {
    spec(scanDecider).given([requested]).when({ type: 'FailScan', reason: 'target deleted', now }).thenEvents();
    spec(scanDecider).given([requested]).when({ type: 'CompleteScan', score, now }).thenFails('conflict');
  });

  it('cancels pending and running scans; a finished scan cannot be cancelled; cancelling twice is a no-op', () => {
    const cancelled: ScanEvent = { type: 'ScanCancelled', schemaVersion: 1, data: { scan_id: 's1', cancelled_by: 'account:a1', finished_at: now } };
    const cancel = { type: 'CancelScan' as const, account_id: 'a1', cancelled_by: 'account:a1', now };
    spec(scanDecider).given([requested]).when(cancel).then([cancelled]);
    spec(scanDecider).given([requested, started]).when(cancel).then([cancelled]);
    spec(scanDecider).given([requested, started, cancelled]).when(cancel).then([]);
    spec(scanDecider).given([requested, started, { type: 'ScanCompleted', schemaVersion: 1, data: { scan_id: 's1', score, finished_at: now } }]).when(cancel).thenFails('conflict');
  });

  it("another account's scan answers as not found", () => {
    spec(scanDecider).given([requested]).when({ type: 'CancelScan', account_id: 'a2', cancelled_by: 'account:a2', now }).thenFails('not_found');
  });

  it('a cancelled scan refuses the worker, which is how the worker learns to stop', () => {
    const cancelled: ScanEvent = { type: 'ScanCancelled', schemaVersion: 1, data: { scan_id: 's1', cancelled_by: 'account:a1', finished_at: now } };
    spec(scanDecider).given([requested, started, cancelled]).when({ type: 'RecordProbeAttempt', attempt: attempt('x'), progress: 10, now }).thenFails('conflict', /cancelled/);
  });
});
