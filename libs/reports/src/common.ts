import type { ScanReport } from '@gauntlet/assessment';
import type { Proof, Severity, Turn, Vulnerability } from '@gauntlet/domain';

export interface RenderedReport {
  contentType: string;
  filename: string;
  body: Buffer;
}

export const SEVERITY_LABEL: Readonly<Record<Severity, string>> = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low' };

/** Bounded excerpt: evidence can hold whole model replies; reports show enough to reproduce. */
export function excerpt(text: string, max: number): string {
  const t = text.replace(/\r\n?/g, '\n');
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
}

export function evidenceTurns(v: Vulnerability, maxTurns = 4, maxChars = 400): Turn[] {
  const turns = v.evidence?.turns ?? [];
  const shown = turns.length > maxTurns ? turns.slice(-maxTurns) : turns;
  return shown.map((t) => ({ role: t.role, content: excerpt(t.content, maxChars) }));
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

/** What a proof matched, in words: the label of a told value, how often a value recurred. */
export function proofMatched(p: Proof): string {
  const m = p.matched;
  switch (m.kind) {
    case 'canary':
      return `the target's canary${m.label ? ` "${m.label}"` : ''}`;
    case 'sensitive':
      return `the sensitive value "${m.label ?? 'unnamed'}"`;
    case 'recurrence':
      return `a value that came back in ${m.occurrences ?? 2} independent conversations`;
    case 'markup':
      return 'markup the answer carried';
    case 'invention':
      return 'what the target made up';
    default:
      return 'the instruction it obeyed';
  }
}

/** The proof as one line of a report: where it is, the quoted span, what it matched. */
export function proofLine(v: Vulnerability, maxChars = 300): string | null {
  const p = v.evidence?.proof;
  if (!p) return null;
  const where = `turn ${p.turn + 1}${p.read_as ? `, ${p.read_as === 'rendered page' ? 'as the page rendered it' : `read as ${p.read_as}`}` : ''}`;
  return `Proof (${where}): "${excerpt(p.text, maxChars)}", ${proofMatched(p)}`;
}
