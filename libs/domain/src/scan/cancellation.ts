import { ActorDirectory, actorName } from '../triage/triage';

/** Who cancelled a scan: the id as recorded, and as people read it. */
export interface Cancellation {
  /** `account:<id>` or `apikey:<id>`, as ScanCancelled recorded it */
  cancelled_by: string;
  /** the account's e-mail, or "API key <name>" */
  cancelled_by_name: string;
  /** the scan's reason, naming the person */
  reason: string;
}

const PREFIX = 'cancelled by ';

/**
 * Who cancelled a scan, worded for people at read time (pure), as triage's `by_name` is: the log
 * keeps only the actor's id, since an e-mail or a key's name can change and is not the log's to copy.
 */
export function cancellation(cancelled_by: string, directory: ActorDirectory): Cancellation {
  const name = actorName(cancelled_by, directory);
  return { cancelled_by, cancelled_by_name: name, reason: `${PREFIX}${name}` };
}

/**
 * The actor who cancelled a scan, from its read model (null unless cancelled). Documents projected
 * before `cancelled_by` was kept hold the actor in their reason only: "cancelled by account:<id>".
 */
export function cancelledBy(scan: { status: string; reason: string | null; cancelled_by?: string | null }): string | null {
  if (scan.status !== 'cancelled') return null;
  if (scan.cancelled_by) return scan.cancelled_by;
  return scan.reason?.startsWith(PREFIX) ? scan.reason.slice(PREFIX.length) : null;
}
