import type { ScanReport } from '@gauntlet/assessment';
import { proofSentence, toolCallText, turnSpeaker, turnText, type Severity, type Vulnerability } from '@gauntlet/domain';

export interface RenderedReport {
  contentType: string;
  filename: string;
  body: Buffer;
}

export const SEVERITY_LABEL: Readonly<Record<Severity, string>> = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low' };

/** One turn of the evidence as a report prints it: who spoke (the tool's name for a tool result) and what, calls included. */
export interface EvidenceLine {
  speaker: string;
  text: string;
}

/**
 * The turns a report prints, bounded: the last `maxTurns`, or the ones that lead to the proof when
 * it sits earlier (an agent's call is often followed by its result and a closing answer).
 */
export function evidenceTurns(v: Pick<Vulnerability, 'evidence'>, maxTurns = 4, maxChars = 400): EvidenceLine[] {
  const turns = v.evidence?.turns ?? [];
  let from = Math.max(0, turns.length - maxTurns);
  const at = v.evidence?.proof?.turn;
  if (typeof at === 'number' && at < from) from = Math.max(0, at - maxTurns + 2);
  return turns.slice(from, from + maxTurns).map((t) => ({ speaker: turnSpeaker(t), text: turnText(t, maxChars) }));
}

/** the evidence as one block of text: `speaker: text` per turn */
export function evidenceText(v: Pick<Vulnerability, 'evidence'>, maxTurns = 4, maxChars = 400, between = '\n\n'): string {
  return evidenceTurns(v, maxTurns, maxChars).map((t) => `${t.speaker}: ${t.text}`).join(between);
}

/** File names carry only the scan id, reduced to safe characters (it ends up in Content-Disposition). */
export function reportFilename(report: ScanReport, ext: string): string {
  const id = (report.scan.id || 'scan').replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80);
  return `gauntlet-scan-${id}.${ext}`;
}

export const pct = (x: number) => `${Math.round(x * 100)}%`;

/** "1 error", "2 errors": counts read as words everywhere in a report */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/**
 * How an attack was sent, each name once: the technique, then the converters it went through
 * (a converter named like its technique is not said twice, e.g. a multi-turn escalation).
 */
export function techniqueLabel(technique: string, converters: readonly string[]): string {
  const names: string[] = [];
  for (const n of [...technique.split('+'), ...converters].map((x) => x.trim()).filter(Boolean)) if (!names.includes(n)) names.push(n);
  return names.join(' + ');
}

/**
 * The text to mark in the printed evidence: the call as the evidence prints it for a tool call, the
 * quoted span for a proof in the answer as written (none for a decoded reading, which the
 * conversation does not show).
 */
export function proofHighlight(v: Pick<Vulnerability, 'evidence'>): string | null {
  const p = v.evidence?.proof;
  if (!p) return null;
  if (p.matched.kind === 'tool_call') return `called ${toolCallText(p.matched.tool ?? '', p.matched.arguments)}`;
  return p.read_as ? null : p.text || null;
}

/** The proof as one line of a report: where it is, then the call or request it is, or the quoted span and what it matched. */
export function proofLine(v: Pick<Vulnerability, 'evidence'>, maxChars = 300): string | null {
  const p = v.evidence?.proof;
  return p ? proofSentence(p, maxChars) : null;
}
