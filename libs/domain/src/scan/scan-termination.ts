import type { ScanCommand } from './scan';
import type { ScanScore } from './vulnerability';
import type { Unfinished } from './budget';

/**
 * How a scan ends, as pure rules: what the scanner's outcome becomes on the scan's stream, and
 * when a running scan counts as abandoned by its scanner.
 */

/** What a scanner reports when its run of a scan is over. */
export type ScanRunOutcome =
  | { kind: 'completed' }
  /** the target stopped answering after probing began */
  | { kind: 'completed_partial'; reason: string }
  /** the scanner sent what the scan's budget allowed, and stopped there */
  | { kind: 'stopped_at_budget'; unfinished: Unfinished }
  /** the target never answered */
  | { kind: 'failed'; reason: string }
  /** the engine was stopped: by the user's cancel (already on the stream) or by the scanner shutting down */
  | { kind: 'stopped' }
  /** the scanner itself failed */
  | { kind: 'crashed' }
  /** the target was gone when the scanner came to it */
  | { kind: 'target_deleted' }
  /** the scanner running it stopped renewing its lease (another scanner ends it) */
  | { kind: 'lease_expired' };

export interface ScanEndFacts {
  /** the score of what was recorded so far */
  score: ScanScore;
  /** probe attempts recorded so far */
  attempts: number;
  now: string;
}

export const SCAN_END_REASONS = {
  targetDeleted: 'The target was deleted before the scan started.',
  scannerStopped: 'The scanner was stopped during the scan; the findings recorded so far are kept.',
  scannerCrashed: 'The scanner hit an internal error; the findings recorded so far are kept.',
  leaseExpired: 'The scanner running this scan stopped (its lease expired); the findings recorded so far are kept.',
} as const;

/**
 * The command that ends a scan after `outcome`. A scan that got somewhere keeps what it found
 * (completed_partial, scored); one that got nowhere fails. We chose ending over resuming a scan
 * whose scanner was lost: a half-run conversation with a target cannot be resumed faithfully.
 * (A scan the user cancelled is already ended: the decider refuses the command, which is then moot.)
 */
export function scanEnding(outcome: ScanRunOutcome, facts: ScanEndFacts): ScanCommand {
  const { score, now } = facts;
  switch (outcome.kind) {
    case 'completed':
      return { type: 'CompleteScan', score, now };
    case 'completed_partial':
      return { type: 'CompleteScanPartially', reason: outcome.reason, score, now };
    case 'stopped_at_budget':
      return { type: 'StopAtBudget', unfinished: outcome.unfinished, score, now };
    case 'failed':
      return { type: 'FailScan', reason: outcome.reason, now };
    case 'target_deleted':
      return { type: 'FailScan', reason: SCAN_END_REASONS.targetDeleted, now };
    case 'stopped':
      return { type: 'CompleteScanPartially', reason: SCAN_END_REASONS.scannerStopped, score, now };
    case 'lease_expired':
      return { type: 'CompleteScanPartially', reason: SCAN_END_REASONS.leaseExpired, score, now };
    case 'crashed':
      return facts.attempts > 0
        ? { type: 'CompleteScanPartially', reason: SCAN_END_REASONS.scannerCrashed, score, now }
        : { type: 'FailScan', reason: SCAN_END_REASONS.scannerCrashed, now };
  }
}

/** A scanner's claim on a running scan, renewed while it runs. */
export interface ScanLease {
  worker_id: string;
  /** epoch ms */
  expires_at: number;
}

/** How often a scanner renews its leases and looks for abandoned scans, for a lease of `leaseMs`. */
export function leaseTimings(leaseMs: number): { renewEveryMs: number; reapEveryMs: number } {
  return { renewEveryMs: Math.max(100, leaseMs / 3), reapEveryMs: Math.max(200, leaseMs / 2) };
}

/**
 * Whether a running scan is abandoned: its lease ran out, or it has none (its scanner died
 * between claiming and leasing, or the lease was lost) and it started over two lease periods ago.
 */
export function leaseExpired(scan: { started_at: string | null }, lease: ScanLease | null, nowMs: number, leaseMs: number): boolean {
  if (lease) return lease.expires_at <= nowMs;
  return scan.started_at !== null && Date.parse(scan.started_at) < nowMs - 2 * leaseMs;
}
