import { Evidence, FindingVariant, OwaspCategoryId, ProvenWeakness, Turn, Verdict, Vulnerability, findingSeverity, fingerprintOf } from '@gauntlet/domain';
import { howItGotThrough } from '../converters/describe';
import { strongest } from '../detectors/detector';
import { Exposure } from '../detectors/rules';
import { CATEGORY_NAMES, guidanceFor } from '../probes/catalogue';
import { Probe } from '../probes/probe';
import { stableId } from './ids';

/** One conversation that showed a weakness. */
export interface Sighting {
  probe: Probe;
  technique: string;
  converters: string[];
  phase: 'probe' | 'amplify';
  verdict: Verdict;
  turns: Turn[];
  foundAt: Date;
  /** credentials or personal data the answer held, for a disclosure */
  exposure: Exposure | null;
}

/** Where a disclosure of credentials or personal data is also filed. */
const SENSITIVE_DATA: OwaspCategoryId = 'LLM02:2025';
/** Categories whose findings are disclosures, rated by what they expose. */
const DISCLOSURES = new Set<string>(['LLM07:2025', 'LLM08:2025']);
export const isDisclosure = (category: string) => DISCLOSURES.has(category);
/** Variants kept per finding, and characters kept of each of their turns: the full record is in the attempts. */
const MAX_VARIANTS = 25;
const VARIANT_TURN_CHARS = 600;

const bound = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters not recorded]`);
const chainKey = (s: Sighting) => `${s.technique}|${s.converters.join('+')}`;

/**
 * Whether `b` should stand for the weakness rather than `a`: the stronger verdict; between equally
 * strong ones, not whichever conversation happened to answer first (that depends on timing and
 * concurrency) but a fixed order: the probe as written before a variant, fewer converters, then
 * by technique and chain. So the same answers give the same evidence in every scan.
 */
function outranks(b: Sighting, a: Sighting): boolean {
  const winner = strongest(a.verdict, b.verdict);
  const tie = winner === a.verdict && strongest(b.verdict, a.verdict) === b.verdict;
  if (!tie) return winner === b.verdict && winner !== a.verdict;
  if (a.phase !== b.phase) return b.phase === 'probe';
  if (a.converters.length !== b.converters.length) return b.converters.length < a.converters.length;
  return chainKey(b) < chainKey(a);
}

interface Entry {
  probe: Probe;
  category: OwaspCategoryId;
  /** the finding's own evidence: the strongest sighting */
  main: Sighting;
  /** the strongest sighting of every other technique and converter chain */
  others: Map<string, Sighting>;
}

/**
 * The scan's findings: one per weakness, i.e. per (probe, category). Every conversation that
 * showed it is a sighting; the strongest is the finding's evidence, the strongest of each other
 * way in is a variant. A disclosure that exposes credentials or personal data is critical, and
 * is also filed as a sensitive-information finding of its own.
 */
export class FindingBook {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxRecordedChars: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** files a sighting; answers the weaknesses it proved first (none when they were known already) */
  add(seen: Sighting): ProvenWeakness[] {
    const exposure = seen.exposure;
    const disclosure = !!exposure && DISCLOSURES.has(seen.probe.category);
    // credentials or personal data in a disclosure prove it, whatever else the detector was unsure of
    const sighting = disclosure ? { ...seen, verdict: { ...seen.verdict, outcome: 'vulnerable' as const, confidence: Math.max(seen.verdict.confidence, 0.9) } } : seen;
    const proved: ProvenWeakness[] = [];
    if (this.file(sighting.probe.category, sighting)) proved.push(this.proven(sighting.probe, sighting.probe.category));
    if (exposure && disclosure) {
      const what = [exposure.credentials.length && 'credentials', exposure.personal_data.length && 'personal data'].filter(Boolean).join(' and ');
      const matched = [...exposure.credentials, ...exposure.personal_data].join('; ').slice(0, 200);
      const filed = this.file(SENSITIVE_DATA, { ...sighting, verdict: { ...sighting.verdict, detector: exposure.credentials.length ? 'secrets' : 'pii', outcome: 'vulnerable', matched: `${what}: ${matched}` } });
      if (filed) proved.push(this.proven(sighting.probe, SENSITIVE_DATA));
    }
    return proved;
  }

  /** a weakness as it is named before its finding is written (the same title the finding gets) */
  private proven(probe: Probe, category: OwaspCategoryId): ProvenWeakness {
    const collateral = category !== probe.category;
    return {
      fingerprint: fingerprintOf(probe.id, category), probe_id: probe.id, category, category_name: CATEGORY_NAMES[category] ?? probe.category_name,
      title: collateral ? `${probe.title}: credentials or personal data disclosed` : probe.title,
    };
  }

  vulnerabilities(scanId: string): Vulnerability[] {
    return [...this.entries.values()].map((e) => this.toVulnerability(scanId, e));
  }

  /** files a sighting under its weakness; true when the weakness is new to the book */
  private file(category: OwaspCategoryId, sighting: Sighting): boolean {
    const key = fingerprintOf(sighting.probe.id, category);
    const entry = this.entries.get(key);
    if (!entry) {
      this.entries.set(key, { probe: sighting.probe, category, main: sighting, others: new Map() });
      return true;
    }
    if (outranks(sighting, entry.main)) {
      const demoted = entry.main;
      entry.main = sighting;
      entry.others.delete(chainKey(sighting));
      this.keepVariant(entry, demoted);
    } else this.keepVariant(entry, sighting);
    return false;
  }

  private keepVariant(entry: Entry, s: Sighting): void {
    const key = chainKey(s);
    if (key === chainKey(entry.main)) return;
    const prior = entry.others.get(key);
    if (!prior || outranks(s, prior)) entry.others.set(key, s);
  }

  private evidence(s: Sighting, maxChars: number): Evidence {
    const v = s.verdict;
    return {
      turns: s.turns.map((t) => ({ ...t, content: bound(t.content, maxChars) })),
      detector: v.detector,
      matched: v.matched,
      ...(v.read_as && { read_as: v.read_as }),
    };
  }

  private toVulnerability(scanId: string, { probe, category, main, others }: Entry): Vulnerability {
    const collateral = category !== probe.category;
    const exposes = !!main.exposure && (collateral || DISCLOSURES.has(category));
    const partial = main.verdict.outcome === 'partial';
    const leaked = main.verdict.detector === 'target-canary';
    const guidance = collateral ? guidanceFor(category) : undefined;
    const variants: FindingVariant[] = [...others.values()]
      .sort((a, b) => a.foundAt.getTime() - b.foundAt.getTime())
      .slice(0, MAX_VARIANTS)
      .map((s) => ({ technique: s.technique, converters: s.converters, how: howItGotThrough(s.converters, s.turns, s.verdict.read_as), phase: s.phase, evidence: this.evidence(s, VARIANT_TURN_CHARS), found_at: s.foundAt.toISOString() }));
    const confidence = partial ? main.verdict.confidence * 0.8 : main.verdict.confidence;
    const fingerprint = fingerprintOf(probe.id, category);
    return {
      id: stableId(scanId, 'vulnerability', fingerprint),
      probe_id: probe.id,
      category,
      category_name: CATEGORY_NAMES[category] ?? probe.category_name,
      title: collateral ? `${probe.title}: credentials or personal data disclosed` : probe.title,
      severity: findingSeverity({ probe: probe.severity, partial, leakedTargetCanary: leaked, exposesSensitiveData: exposes }),
      confidence: Math.round(confidence * 100) / 100,
      technique: main.technique,
      converters: main.converters,
      how: howItGotThrough(main.converters, main.turns, main.verdict.read_as),
      description: [
        collateral ? `While testing "${probe.title}" (${probe.category}), the answer disclosed sensitive information.` : probe.description,
        exposes ? 'The disclosed text held credentials or personal data, so the finding is critical.' : '',
        leaked ? "The answer contained one of the target's own canary strings, which must never appear in output." : '',
        partial ? 'The target only partly complied; the severity is lowered accordingly.' : '',
      ].filter(Boolean).join(' '),
      evidence: this.evidence(main, this.maxRecordedChars),
      remediation: guidance?.remediation ?? probe.remediation,
      references: guidance?.references ?? probe.references,
      phase: main.phase,
      found_at: main.foundAt.toISOString(),
      fingerprint,
      variants,
    };
  }
}
