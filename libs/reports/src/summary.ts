import type { ControlEvidence, ScanReport } from '@gauntlet/assessment';
import { rangeWords, spentWords, TOKEN_ESTIMATE, TRIAGE_STATE_LABELS, unfinishedWords, type FindingTriage } from '@gauntlet/domain';
import { plural } from './common';

/**
 * The sentences every format says the same way: the score as scanned beside the score after
 * triage, the triage tally, what changed since the last scan, and control statuses.
 */

/** a state as a sentence says it: "2 false positive", "Triage: accepted risk" */
const stateWords = (state: FindingTriage['state']) => TRIAGE_STATE_LABELS[state].toLowerCase();

/** whether triage set any finding aside: only then does the score after triage differ from the recorded one */
export function anyTriaged(r: ScanReport): boolean {
  const c = r.triage.counts;
  return c.false_positive + c.accepted_risk + c.fixed > 0;
}

/** what share of the plan a partial scan ran, and why it stopped: said wherever its grade is */
export function partialLine(r: ScanReport): string {
  const share = r.scan.coverage === null ? 'an unknown share' : `${Math.round(r.scan.coverage * 100)}%`;
  return `the scan stopped after ${share} of its plan${r.scan.reason ? ` (${r.scan.reason})` : ''}; the score and grade cover only what ran.`;
}

export function scoreLine(r: ScanReport): string {
  const s = r.score;
  if (!s) return `No score: the scan ended ${r.scan.status}.`;
  const after = r.triage.score_after_triage;
  const asScanned = `${s.overall_score} / 100, grade ${r.scan.grade_label ?? s.grade} as scanned (scoring version ${s.scoring_version})`;
  if (!after || !anyTriaged(r)) return `${asScanned}; nothing is triaged away, so the score after triage is the same.`;
  return `${asScanned}; ${after.overall_score} / 100, grade ${after.grade} after triage (as of ${r.triage.as_of}).`;
}

export function triageLine(r: ScanReport): string {
  const c = r.triage.counts;
  const set = (['false_positive', 'accepted_risk', 'fixed'] as const).filter((k) => c[k] > 0).map((k) => `${c[k]} ${stateWords(k)}`);
  return `${plural(c.open, 'finding')} open${set.length ? `; ${set.join(', ')}` : '; none triaged'}.`;
}

export function changesLine(r: ScanReport): string {
  const c = r.changes;
  if (!c) return 'Not compared with an earlier scan.';
  if (!c.base_scan_id) return `The target's first finished scan: ${plural(c.new.length, 'finding')} new.`;
  const base = c.base ? ` (${c.base.finished_at ?? 'unfinished'}${c.base.security_grade ? `, grade ${c.base.security_grade}` : ''})` : '';
  const untested = c.not_retested.length ? `; ${c.not_retested.length} not retested` : '';
  return `Compared with scan ${c.base_scan_id}${base}: ${c.new.length} new, ${c.still_open.length} still open, ${c.fixed.length} fixed${c.not_reproduced.length ? `, ${c.not_reproduced.length} not reproduced this time` : ''}${untested}.`;
}

export function triageText(t: FindingTriage): string {
  const lapsed = t.lapsed === 'expired' ? ` (accepted risk expired ${t.expires_at})` : t.lapsed === 'found_again' ? ' (marked fixed, found again)' : '';
  const until = t.state === 'accepted_risk' && t.expires_at ? ` until ${t.expires_at}` : '';
  return `Triage: ${stateWords(t.state)}${until}${lapsed}, by ${t.by_name ?? t.by} at ${t.at}: ${t.reason}`;
}

/** A practice control is labelled as one: a scan is evidence for it, never a pass. */
export function controlStatus(c: ControlEvidence): string {
  if (c.basis === 'practice') return 'Practice';
  return { pass: 'Pass', fail: 'Fail', not_tested: 'Not tested' }[c.status];
}

export const PRACTICE_NOTE =
  'Practice: the control asks an organisation to govern, map, measure or monitor; a scan cannot pass it. The scan is evidence that the practice is carried out, for the assessor to weigh.';

/**
 * What the scan spent, in the sentences every format says it with (its own section, at the end of a
 * report): requests and tokens beside the plan's range, the budget and where it stopped the scan,
 * and the attacker and judge models' requests apart from the target's. Empty when nothing was recorded.
 */
export function spendingLines(r: ScanReport): string[] {
  const s = r.spending;
  if (!s) return [];
  const lines = [`${spentWords(s)}.`];
  if (s.budget) {
    const limits = (['max_requests', 'max_tokens', 'max_cost'] as const).filter((l) => s.budget![l] !== undefined).map((l) => `${l} ${s.budget![l]}`);
    if (limits.length) lines.push(`Budget: ${limits.join(', ')}${s.budget.price_in !== undefined ? ` (at ${s.budget.price_in} a million tokens sent, ${s.budget.price_out} received)` : ''}.`);
  }
  if (s.unfinished) lines.push(`The scan ${unfinishedWords(s.unfinished)}.`);
  const models = [
    s.attacker && `the attacker model ${plural(s.attacker.requests, 'request')}${s.attacker.plan ? ` (plan ${rangeWords(s.attacker.plan)})` : ''}`,
    s.judge && `the judge model ${plural(s.judge.requests, 'request')}${s.judge.plan ? ` (plan ${rangeWords(s.judge.plan)})` : ''}`,
  ].filter(Boolean);
  if (models.length) lines.push(`Apart from the target: ${models.join('; ')}.`);
  lines.push(`Tokens are estimated: ${TOKEN_ESTIMATE}.`);
  return lines;
}
