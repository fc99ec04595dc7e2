import { upcastEvent } from '@gauntlet/domain';
import type { WebhookEnvelope } from '../envelope';
import { alert, completed } from '../../test/fixtures';
import { deliveryId, subscribers } from './dispatcher';
import type { WebhookDoc } from './model';
import { evolveScanSummaryDoc, newSince } from './scan-summary';
import type { ScanSummaryDoc } from './model';

const hook = (id: string, over: Partial<WebhookDoc> = {}): WebhookDoc => ({
  _id: id, account_id: 'a', url: 'https://x', event_types: ['scan.completed'], format_type: 'json', enabled: true, secret_encrypted: 's', created_at: '',
  target_id: null, min_severity: null, disabled_reason: null, deleted: false, ...over,
});
const routed = (envelope: WebhookEnvelope, target_id = completed.data.scan_id) => ({ account_id: 'a', target_id, envelope });

describe('subscribers', () => {
  it('picks the enabled account webhooks that subscribe to the event', () => {
    const hooks = [hook('yes'), hook('other-event', { event_types: ['scan.started'] }), hook('disabled', { enabled: false }), hook('other-account', { account_id: 'b' }), hook('alert', { target_id: 't', event_types: ['agent.alert'] })];
    expect(subscribers(routed(completed), hooks).map((h) => h._id)).toEqual(['yes']);
  });

  it('sends agent alerts only to that target alert webhook, at or above its minimum severity', () => {
    const t = alert.data.target_id;
    const hooks = [hook('account', { event_types: ['agent.alert'] }), hook('high', { target_id: t, min_severity: 'high' }), hook('critical', { target_id: t, min_severity: 'critical' }), hook('any', { target_id: t }), hook('elsewhere', { target_id: 'zz' })];
    expect(subscribers(routed(alert, t), hooks).map((h) => h._id)).toEqual(['high', 'any']);
  });

  it('derives delivery ids from envelope and webhook', () => {
    expect(deliveryId('evt_1', 'w1')).toBe(deliveryId('evt_1', 'w1'));
    expect(deliveryId('evt_1', 'w1')).not.toBe(deliveryId('evt_1', 'w2'));
    expect(deliveryId('evt_1', 'w1')).toMatch(/^dlv_[0-9a-f]{32}$/);
  });
});

describe('evolveScanSummaryDoc', () => {
  const e = (type: string, data: object, revision: number) => ({ streamId: 'scan-s', revision, type, data, recordedAt: '' });
  it('counts findings by severity and follows the status', () => {
    let doc = evolveScanSummaryDoc(null, e('ScanRequested', { scan_id: 's', account_id: 'a', target_id: 't', target_name: 'n', requested_at: 'R' }, 0));
    doc = evolveScanSummaryDoc(doc, e('ScanStarted', { scan_id: 's', started_at: 'T' }, 1));
    doc = evolveScanSummaryDoc(doc, e('VulnerabilityFound', { scan_id: 's', vulnerability: { severity: 'high', fingerprint: 'p1:LLM01:2025', supersedes: [], exposures: [] } }, 2));
    // a finding recorded before fingerprints existed, read as the store reads it (upcastEvent): the one derived from its probe and category
    doc = evolveScanSummaryDoc(doc, upcastEvent(e('VulnerabilityFound', { scan_id: 's', vulnerability: { severity: 'high', probe_id: 'p2', category: 'LLM07:2025', technique: 't', converters: [] } }, 3)));
    doc = evolveScanSummaryDoc(doc, e('ScanFailed', { scan_id: 's' }, 4));
    expect(doc).toEqual({
      _id: 's', _rev: 4, account_id: 'a', target_id: 't', target_name: 'n', status: 'failed', critical: 0, high: 2, medium: 0, low: 0, started_at: 'T',
      created_at: 'R', fingerprints: ['p1:LLM01:2025', 'p2:LLM07:2025'],
    });
    expect(evolveScanSummaryDoc(null, e('ScanStarted', { scan_id: 's' }, 1))).toBeNull();
    expect(evolveScanSummaryDoc(doc, e('ProbeAttempted', { scan_id: 's' }, 5))).toBeNull();
  });
});

describe('new findings at the end of a scan', () => {
  const summary = (id: string, status: string, created_at: string, fingerprints: string[]): ScanSummaryDoc =>
    ({ _id: id, account_id: 'a', target_id: 't', target_name: 'n', status, critical: 0, high: 0, medium: 0, low: 0, started_at: null, created_at, fingerprints }) as ScanSummaryDoc;

  it('counts the fingerprints the previous finished scan of the target did not have', () => {
    const current = summary('s3', 'completed', '2026-11-21T03:00:00.000Z', ['a', 'b', 'c']);
    const earlier = [summary('s2', 'failed', '2026-11-21T02:00:00.000Z', []), summary('s1', 'completed', '2026-11-21T01:00:00.000Z', ['b', 'z'])];
    expect(newSince(current, earlier)).toEqual({ base_scan_id: 's1', new_findings: 2 });
  });

  it('a target’s first scan has every finding new', () => {
    expect(newSince(summary('s1', 'completed', '2026-11-21T01:00:00.000Z', ['a']), [])).toEqual({ base_scan_id: null, new_findings: 1 });
  });
});
