import { decisionFor, effectiveTriage, FindingTriage, findingTriage, isTriagedAway, ProbeAttempt, ScanScore, TRIAGE_STATES, TriageDecision, TriageState, Vulnerability } from '@gauntlet/domain';
import { attemptFailed, scoreScan } from './scoring';

export type TriagedVulnerability = Vulnerability & { triage?: FindingTriage };

/**
 * The target's triage decisions applied to one scan's findings, as of `now` (pure): each finding
 * whose fingerprint was decided on (or the fingerprints it supersedes, when they agree: decisionFor)
 * carries `triage`; the others are open and carry none.
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
    const t = effectiveTriage(decisionFor(v, byFingerprint), scanRequestedAt, now);
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
 * risk, fixed), beside the recorded one, which never changes. A probe all of whose findings are
 * triaged away (a probe is an instance of every weakness it showed) counts as resisted, so it
 * leaves the attack success rate too. Computed with the current formula; when nothing is triaged
 * away it is the recorded score itself (whatever its version).
 */
export function scoreAfterTriage(recorded: ScanScore, attempts: readonly ProbeAttempt[], vulnerabilities: readonly TriagedVulnerability[]): ScanScore {
  const away = vulnerabilities.filter(suppressed);
  if (away.length === 0) return recorded;
  const probesOf = (v: TriagedVulnerability) => (v.probes?.length ? v.probes : [v.probe_id]);
  const still = new Set(vulnerabilities.filter((v) => !suppressed(v)).flatMap(probesOf));
  const awayProbes = new Set(away.flatMap(probesOf).filter((p) => !still.has(p)));
  const resisted = attempts.map((a) => (attemptFailed(a) && awayProbes.has(a.probe_id) ? { ...a, verdict: { ...a.verdict, outcome: 'resisted' as const } } : a));
  return scoreScan({ attempts: resisted, vulnerabilities: vulnerabilities.filter((v) => !suppressed(v)) });
}

/** Whether any finding of the scan is triaged away: only then is the scan's history needed for the score after triage. */
export const anyTriagedAway = (vulnerabilities: readonly TriagedVulnerability[]) => vulnerabilities.some(suppressed);
