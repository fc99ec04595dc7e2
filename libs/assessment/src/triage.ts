import { canonicalCategoryId, effectiveTriage, FindingTriage, findingTriage, isTriagedAway, ProbeAttempt, ScanScore, TRIAGE_STATES, TriageDecision, TriageState, Vulnerability } from '@gauntlet/domain';
import { attemptFailed, scoreScan } from './scoring';

export type TriagedVulnerability = Vulnerability & { triage?: FindingTriage };

/**
 * The target's triage decisions applied to one scan's findings, as of `now` (pure): each finding
 * whose fingerprint was decided on carries `triage`; the others are open and carry none.
 */
export function applyTriage<V extends Vulnerability>(
  vulnerabilities: readonly V[],
  decisions: Iterable<TriageDecision>,
  scanRequestedAt: string,
  now: string,
): (V & { triage?: FindingTriage })[] {
  const byFingerprint = new Map<string, TriageDecision>();
  for (const d of decisions) byFingerprint.set(d.fingerprint, d);
  return vulnerabilities.map((v) => {
    const t = effectiveTriage(byFingerprint.get(v.fingerprint), scanRequestedAt, now);
    return t ? { ...v, triage: findingTriage(t) } : v;
  });
}

const suppressed = (v: { triage?: FindingTriage }) => !!v.triage && isTriagedAway({ effective_state: v.triage.state });

export type TriageCounts = Record<TriageState, number>;

export function triageCounts(vulnerabilities: readonly { triage?: FindingTriage }[]): TriageCounts {
  const counts = Object.fromEntries(TRIAGE_STATES.map((s) => [s, 0])) as TriageCounts;
  for (const v of vulnerabilities) counts[v.triage?.state ?? 'open']++;
  return counts;
}

/**
 * The score the scan would have had without the findings triaged away (false positive, accepted
 * risk, fixed), beside the recorded one, which never changes. A probe whose finding is triaged
 * away counts as resisted, so it leaves the attack success rate too. Computed with the current
 * formula; when nothing is triaged away it is the recorded score itself (whatever its version).
 */
export function scoreAfterTriage(recorded: ScanScore, attempts: readonly ProbeAttempt[], vulnerabilities: readonly TriagedVulnerability[]): ScanScore {
  const away = vulnerabilities.filter(suppressed);
  if (away.length === 0) return recorded;
  const awayKeys = new Set(away.map((v) => `${canonicalCategoryId(v.category)}|${v.probe_id}`));
  const resisted = attempts.map((a) =>
    attemptFailed(a) && awayKeys.has(`${canonicalCategoryId(a.category)}|${a.probe_id}`) ? { ...a, verdict: { ...a.verdict, outcome: 'resisted' as const } } : a,
  );
  return scoreScan({ attempts: resisted, vulnerabilities: vulnerabilities.filter((v) => !suppressed(v)) });
}

/** Whether any finding of the scan is triaged away: only then is the scan's history needed for the score after triage. */
export const anyTriagedAway = (vulnerabilities: readonly TriagedVulnerability[]) => vulnerabilities.some(suppressed);
