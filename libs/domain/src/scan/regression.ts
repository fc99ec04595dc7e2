import { effectiveTriage, TriageDecision } from '../triage/triage';

export const REGRESSION_REASONS = ['found_again', 'score_drop'] as const;
export type RegressionReason = (typeof REGRESSION_REASONS)[number];

export interface Regression {
  reason: RegressionReason;
  /** found_again: the weaknesses triaged fixed that this scan found; score_drop: none */
  fingerprints: string[];
  score: number;
  previous_score: number | null;
}

/** What the regression policy decides on, gathered from the log when a scan finishes. */
export interface RegressionFacts {
  /** the fingerprints of the finished scan's findings, and those they supersede (probe:category) */
  fingerprints: readonly string[];
  /** when the scan was requested: a fix decided after that is not contradicted by this scan */
  requested_at: string;
  /** the target's triage decisions, the latest per fingerprint */
  decisions: readonly TriageDecision[];
  score: number;
  /** the score of the target's previous finished scan, null for its first */
  previous_score: number | null;
  /** the owner's threshold in points, null: score drops do not alert */
  threshold: number | null;
}

/**
 * Did this finished scan regress? (pure). A weakness someone marked fixed before the scan was
 * requested, and found again by it, is a regression; so is a score that fell by more than the
 * target's threshold since its previous finished scan. One regression per reason.
 */
export function scanRegressions(f: RegressionFacts): Regression[] {
  const found = new Set(f.fingerprints);
  const again = f.decisions
    .filter((d) => found.has(d.fingerprint) && effectiveTriage(d, f.requested_at, f.requested_at)?.lapsed === 'found_again')
    .map((d) => d.fingerprint)
    .sort();
  const out: Regression[] = [];
  if (again.length) out.push({ reason: 'found_again', fingerprints: again, score: f.score, previous_score: f.previous_score });
  if (f.threshold !== null && f.previous_score !== null && f.previous_score - f.score > f.threshold) {
    out.push({ reason: 'score_drop', fingerprints: [], score: f.score, previous_score: f.previous_score });
  }
  return out;
}
