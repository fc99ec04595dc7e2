import { proofShows, provenByAction, type Vulnerability } from '@gauntlet/domain';

/**
 * What the target did, for the terminal after the findings table: each finding an act proves (a
 * tool call, a request to a planted address), said in the words every report uses. Nothing when
 * no finding is an act.
 */
export function actLines(findings: readonly Pick<Vulnerability, 'severity' | 'title' | 'evidence'>[]): string[] {
  const acts = findings.filter((v) => provenByAction(v.evidence?.proof?.matched));
  if (!acts.length) return [];
  return ['What the target did:', ...acts.map((v) => `  ${v.severity}  ${v.title}: ${proofShows(v.evidence.proof!.matched)}`)];
}
