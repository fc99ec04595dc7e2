import type { ProbeSelection, ScanEvent } from '@gauntlet/domain';
import type { RecordedEvent } from '@gauntlet/eventstore';
import type { Message } from '@gauntlet/messaging';

export const SCAN_JOBS_TOPIC = 'gauntlet.scan-jobs';

export interface ScanJob {
  scan_id: string;
  account_id: string;
  target_id: string;
  profile: 'quick' | 'standard' | 'deep';
  selection?: ProbeSelection;
}

/** ScanRequested becomes a job on the bus, keyed by scan so redeliveries land on one partition. */
export function scanJobsFrom(event: RecordedEvent): Message[] {
  if (event.type !== 'ScanRequested') return [];
  const d = (event as unknown as ScanEvent & { type: 'ScanRequested' }).data;
  const job: ScanJob = { scan_id: d.scan_id, account_id: d.account_id, target_id: d.target_id, profile: d.profile, ...(d.selection && { selection: d.selection }) };
  return [{ key: d.scan_id, value: JSON.stringify(job) }];
}
