import { isStream, streamPrefixes } from '@gauntlet/domain';
import type { EventStore, RecordedEvent } from '@gauntlet/eventstore';
import type { Bus } from '@gauntlet/messaging';
import { DocumentCheckpoints, type DocumentStore } from '@gauntlet/read-models';
import { LogRelay, type RelayRoute } from '@gauntlet/subscriptions';
import { AGENT_ALERT_RAISED, toWebhookEvents, type AgentAlertRaisedData } from '../envelope';
import { silentLog, type EngineLog } from './log';
import { COLLECTIONS, TOPICS, type RoutedEnvelope, type ScanSummaryDoc } from './model';
import { evolveScanSummaryDoc, newSince, toScanSummary } from './scan-summary';

export interface WebhookRelayOptions {
  store: EventStore;
  docs: DocumentStore;
  bus: Bus;
  /** PUBLIC_BASE_URL, for report_url */
  baseUrl: string;
  log?: EngineLog;
  /** checkpoint id; one relay per deployment (a second would only publish duplicates, which the worker dedupes) */
  name?: string;
}

/**
 * Log -> bus for webhooks: the one LogRelay, on the route that turns the domain events webhooks
 * care about into envelopes on gauntlet.webhook-events.
 */
export function webhookRelay(options: WebhookRelayOptions): LogRelay {
  return new LogRelay({
    store: options.store,
    checkpoints: new DocumentCheckpoints(options.docs),
    bus: options.bus,
    name: options.name ?? 'webhook-relay',
    route: webhookEnvelopeRoute(options.docs, options.baseUrl),
    log: options.log ?? silentLog,
  });
}

/**
 * The webhook envelopes route: keyed by scan id (target id for agent alerts) so one scan's events
 * stay in order. The relay saves its checkpoint after the publish (at-least-once); envelope ids
 * derive from the events, so a replay republishes the same ids and the same delivery ids.
 */
export function webhookEnvelopeRoute(docs: DocumentStore, baseUrl: string): RelayRoute {
  const summaries = () => docs.collection<ScanSummaryDoc>(COLLECTIONS.scanSummaries);

  /** one domain event: update the scan's summary (revision guard), map */
  async function route(e: RecordedEvent): Promise<RoutedEnvelope[]> {
    if (e.type === AGENT_ALERT_RAISED) {
      const d = e.data as AgentAlertRaisedData;
      return toWebhookEvents(e, null).map((envelope) => ({ account_id: d.account_id, target_id: d.target_id, envelope }));
    }
    if (!isStream('scan', e.streamId) || typeof e.data?.scan_id !== 'string') return [];
    let summary = await summaries().get(e.data.scan_id);
    // a redelivered event leaves the summary alone (it already counts it)
    if (!summary || (summary._rev ?? -1) < e.revision) {
      const next = evolveScanSummaryDoc(summary, e);
      if (next) {
        await summaries().putIfNewer({ ...next, _rev: e.revision });
        summary = next;
      }
    }
    if (!summary) return [];
    const s = summary;
    const changes = e.type === 'ScanCompleted' || e.type === 'ScanCompletedPartial' ? await changesOf(s) : undefined;
    return toWebhookEvents(e, toScanSummary(s, baseUrl, changes)).map((envelope) => ({ account_id: s.account_id, target_id: s.target_id, envelope }));
  }

  /** new findings since the previous finished scan of the target: its summary is the newest earlier one that finished */
  async function changesOf(s: ScanSummaryDoc) {
    let after = { value: (s.created_at ?? null) as string | null, id: s._id };
    let earlier: ScanSummaryDoc[] = [];
    for (let pages = 0; pages < 40; pages++) {
      const page = await summaries().find({ account_id: s.account_id, target_id: s.target_id }, { sort: { field: 'created_at', direction: 'desc' }, limit: 50, after });
      earlier = [...earlier, ...page];
      if (page.some((p) => p.status === 'completed' || p.status === 'completed_partial') || page.length < 50) break;
      after = { value: page[page.length - 1].created_at ?? null, id: page[page.length - 1]._id };
    }
    return newSince(s, earlier);
  }

  return {
    topic: TOPICS.webhookEvents,
    filter: { streamPrefixes: [streamPrefixes.scan, streamPrefixes.monitor] },
    prepare: () => summaries().ensureIndex(['account_id', 'target_id', 'created_at']),
    async toMessages(e) {
      return (await route(e)).map((r) => ({
        key: r.envelope.event === 'agent.alert' ? r.target_id : (r.envelope.data as { scan_id: string }).scan_id,
        value: JSON.stringify(r),
        headers: { event: r.envelope.event, envelope_id: r.envelope.id },
      }));
    },
  };
}
