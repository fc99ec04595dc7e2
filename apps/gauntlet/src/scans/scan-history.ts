import { ProbeAttempt, streams, Vulnerability } from '@gauntlet/domain';
import type { RecordedEvent, UpcastingEventStore } from '@gauntlet/eventstore';

/** What a scan tried and found, as its events say: attempts are kept there and nowhere else. */
export interface ScanRecord {
  attempts: ProbeAttempt[];
  vulnerabilities: Vulnerability[];
}

/** A scan's history both ways: as read today (current shapes) and as written (what the audit chain covers). */
export interface ScanHistoryBothWays {
  events: RecordedEvent[];
  recorded: RecordedEvent[];
}

/** A scan's own events, read from the log: the audit trail reports, evidence and scores after triage are built from. */
export class ScanHistory {
  constructor(private readonly events: UpcastingEventStore) {}

  /** the scan's events in their current shapes, all of them or those from a revision on */
  read(scan_id: string, fromRevision?: number): Promise<RecordedEvent[]> {
    return this.events.readStream(streams.scan(scan_id), fromRevision === undefined ? undefined : { fromRevision });
  }

  /** the scan's events as written: the audit export and its chain cover these, so a digest quoted years ago still matches */
  recorded(scan_id: string): Promise<RecordedEvent[]> {
    return this.events.recorded.readStream(streams.scan(scan_id));
  }

  /** the scan's events as written and the same events in their current shapes, read once (a report and its chain) */
  async bothWays(scan_id: string): Promise<ScanHistoryBothWays> {
    const recorded = await this.recorded(scan_id);
    return { recorded, events: recorded.map(this.events.upcast) };
  }

  /** the scan's attempts and findings, in the order they were recorded (what its score is computed from) */
  async record(scan_id: string): Promise<ScanRecord> {
    return recordOf(await this.read(scan_id));
  }
}

/** the attempts and findings among a scan's events (read in their current shapes) */
export function recordOf(events: readonly RecordedEvent[]): ScanRecord {
  return {
    attempts: events.filter((e) => e.type === 'ProbeAttempted').map((e) => (e.data as { attempt: ProbeAttempt }).attempt),
    vulnerabilities: events.filter((e) => e.type === 'VulnerabilityFound').map((e) => (e.data as { vulnerability: Vulnerability }).vulnerability),
  };
}
