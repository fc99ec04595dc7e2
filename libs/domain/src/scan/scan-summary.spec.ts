import { upcastEvent } from '../upcasts';
import { evolveScanSummary, ScanSummaryEvent, ScanSummaryState } from './scan-summary';

/** given these events, the summary a reader of the scan's events keeps */
const given = (events: ScanSummaryEvent[]) => events.reduce<ScanSummaryState | null>((s, e) => evolveScanSummary(s, e) ?? s, null);
const requested: ScanSummaryEvent = { type: 'ScanRequested', data: { scan_id: 's', account_id: 'a', target_id: 't', target_name: 'bot', requested_at: 'R' } };

describe('the scan summary, one fold of scan events', () => {
  it('a requested scan is pending, owned, with nothing found', () => {
    expect(given([requested])).toEqual({ account_id: 'a', target_id: 't', target_name: 'bot', status: 'pending', critical: 0, high: 0, medium: 0, low: 0, started_at: null, created_at: 'R', fingerprints: [] });
  });

  it('follows the status to its end and counts findings by severity, each fingerprint once', () => {
    const found = (severity: string, fingerprint: string): ScanSummaryEvent => ({ type: 'VulnerabilityFound', data: { vulnerability: { severity, fingerprint, supersedes: [], exposures: [] } } });
    const s = given([requested, { type: 'ScanStarted', data: { started_at: 'T' } }, found('high', 'f1'), found('critical', 'f2'), found('high', 'f1'), { type: 'ScanCompletedPartial', data: {} }]);
    expect(s).toMatchObject({ status: 'completed_partial', started_at: 'T', critical: 1, high: 2, fingerprints: ['f1', 'f2'] });
  });

  it('a finding recorded before fingerprints existed, read as the store reads it (upcastEvent), counts under the one derived from its probe and category', () => {
    const recorded = { type: 'VulnerabilityFound', data: { vulnerability: { severity: 'low', probe_id: 'p2', category: 'LLM07:2025', technique: 't', converters: [] } } };
    const s = given([requested, upcastEvent(recorded)]);
    expect(s?.fingerprints).toEqual(['p2:LLM07:2025']);
  });

  it('keeps what the findings supersede and what leaked, each finding once', () => {
    const exposure = { kind: 'credential', source: 'sensitive', label: 'records database URL', shown: 'postgres://a:***@b', whole: true, conversations: 2, probes: ['sid-001'], first_seen: 'T', via: ['answer'], rotate: true };
    const found: ScanSummaryEvent = { type: 'VulnerabilityFound', data: { vulnerability: { id: 'v1', severity: 'critical', fingerprint: 'LLM02:2025:value:h1', supersedes: ['sid-001:LLM02:2025'], exposures: [exposure] } } };
    const s = given([requested, found, found]);
    expect(s).toMatchObject({ supersedes: [{ fingerprint: 'LLM02:2025:value:h1', supersedes: ['sid-001:LLM02:2025'] }], exposures: [{ ...exposure, vulnerability_id: 'v1' }] });
  });

  it('events that change nothing in it, and events before the request, leave it alone', () => {
    expect(evolveScanSummary(given([requested]), { type: 'ProbeAttempted', data: {} })).toBeNull();
    expect(evolveScanSummary(null, { type: 'ScanStarted', data: { started_at: 'T' } })).toBeNull();
    for (const [type, status] of [['ScanCompleted', 'completed'], ['ScanFailed', 'failed'], ['ScanCancelled', 'cancelled']]) {
      expect(evolveScanSummary(given([requested]), { type, data: {} })?.status).toBe(status);
    }
  });
});
