import { isStream, type ProbeAttempt, type ScanEvent, type TriageDecision, type TriageEvent } from '@gauntlet/domain';
import type { RecordedEvent } from '@gauntlet/eventstore';
import { Projection } from './projection';

/** The latest triage decision on one fingerprint of one target (fed by the target's stream only). */
export type TriageDoc = TriageDecision & { _id: string; _rev?: number; target_id: string; account_id: string; [k: string]: unknown };

export const triageDocId = (target_id: string, fingerprint: string) => `${target_id}:${fingerprint}`;

export const triageProjection: Projection<TriageDoc> = {
  collection: 'triage',
  indexes: [['target_id']],
  documentId: (e) => (e.type === 'FindingTriaged' && isStream('target', e.streamId) ? triageDocId(e.data.target_id, e.data.fingerprint) : null),
  apply(_doc, event) {
    const e = event as RecordedEvent & TriageEvent;
    return { ...e.data, _id: triageDocId(e.data.target_id, e.data.fingerprint), _rev: e.revision };
  },
};

/**
 * The probes a scan sent and got an answer to (recon and errors excluded): a weakness a later scan
 * did not find counts as fixed only if that scan tried its probe again. Written only when a probe
 * is new to the scan, so the many attempts of one probe cost a read each, not a write.
 */
export interface ScanCoverageDoc {
  _id: string;
  _rev?: number;
  probes: string[];
  [k: string]: unknown;
}

export const scanCoverageProjection: Projection<ScanCoverageDoc> = {
  collection: 'scan_coverage',
  indexes: [],
  documentId: (e) => (e.type === 'ProbeAttempted' && isStream('scan', e.streamId) ? e.data.scan_id : null),
  apply(doc, event) {
    const e = event as RecordedEvent & ScanEvent;
    if (e.type !== 'ProbeAttempted') return doc;
    const a: ProbeAttempt = e.data.attempt;
    if (a.phase === 'recon' || a.verdict?.outcome === 'error') return null;
    if (doc?.probes.includes(a.probe_id)) return null;
    return { _id: e.data.scan_id, _rev: e.revision, probes: [...(doc?.probes ?? []), a.probe_id] };
  },
};
