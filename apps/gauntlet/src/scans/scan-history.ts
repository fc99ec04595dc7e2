import { streams } from '@gauntlet/domain';
import type { EventStore, RecordedEvent } from '@gauntlet/eventstore';

/** A scan's own events, read from the log: the audit trail reports, evidence and scores after triage are built from. */
export class ScanHistory {
  constructor(private readonly events: EventStore) {}

  read(scan_id: string): Promise<RecordedEvent[]> {
    return this.events.readStream(streams.scan(scan_id));
  }
}
