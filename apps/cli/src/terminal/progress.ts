import type { RequestPlan, Severity } from '@gauntlet/domain';

/** What the progress line shows of a running scan (the scans read model has all of it). */
export interface ScanProgress {
  status: string;
  phase: string;
  progress: number;
  requests: Partial<Record<string, number>>;
  /** requests sent as the scan's budget counts them (retries and tool rounds too): what the plan counts */
  requests_sent?: number;
  /** the weaknesses proved so far, counted as the service counts them while the scan runs */
  findings_so_far: number;
  /** the findings by severity: written when the scan ends */
  severity_counts: Record<Severity, number>;
  /** the scanner's own estimate (its model of the target's throughput); absent or null: not known */
  seconds_left?: number | null;
  /** the scan's plan, once it started: its likely requests, and its time at a known pace */
  plan?: Pick<RequestPlan, 'requests' | 'seconds' | 'pace'>;
}

/** m:ss, or h:mm:ss past an hour */
export function clock(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * Time left: the scanner's estimate when it gives one (the work its plan still holds over the
 * target's throughput as its pacing measures it: the same model the scan is paced by), else the
 * plan's likely time when its pace was known (told, measured, or the target's previous scan), else
 * the pace so far, unknown until a few percent have run.
 */
export function remaining(progress: number, elapsedMs: number, secondsLeft?: number | null, plan?: ScanProgress['plan']): number | null {
  if (progress >= 100) return null;
  if (secondsLeft !== undefined && secondsLeft !== null) return secondsLeft * 1000;
  if (plan && plan.pace.source !== 'assumed') return Math.max(0, plan.seconds.likely * 1000 - elapsedMs);
  if (progress < 3) return null;
  return (elapsedMs * (100 - progress)) / progress;
}

/** requests sent so far: as the budget and the plan count them, or (scans from before) the messages sent */
export const requestsOf = (p: Pick<ScanProgress, 'requests' | 'requests_sent'>) => p.requests_sent ?? Object.values(p.requests).reduce<number>((n, x) => n + (x ?? 0), 0);

/**
 * `probe     42%  requests 118 of ~256  findings 3  0:41 elapsed, ~0:56 left`: the live count the service
 * shows (findings_so_far); the split by severity once the scan's findings are written.
 */
export function progressLine(p: ScanProgress, elapsedMs: number): string {
  const counts = (['critical', 'high', 'medium', 'low'] as const).filter((s) => p.severity_counts[s] > 0).map((s) => `${p.severity_counts[s]} ${s}`);
  const written = Object.values(p.severity_counts).reduce((a, b) => a + b, 0);
  const total = written || p.findings_so_far;
  const left = remaining(p.progress, elapsedMs, p.seconds_left, p.plan);
  return [
    `${p.phase.padEnd(8)} ${String(p.progress).padStart(3)}%`,
    `requests ${requestsOf(p)}${p.plan ? ` of ~${p.plan.requests.likely}` : ''}`,
    `findings ${total}${counts.length ? ` (${counts.join(', ')})` : ''}`,
    `${clock(elapsedMs)} elapsed${left === null ? '' : `, ~${clock(left)} left`}`,
  ].join('  ');
}

/**
 * In a pipe or CI a line is printed when the phase changes or every tenth of the scan, not on
 * every poll: logs stay readable. Returns the key that changed, or null when nothing is worth a line.
 */
export function plainLineKey(p: ScanProgress): string {
  return `${p.status}|${p.phase}|${Math.floor(p.progress / 10)}`;
}
