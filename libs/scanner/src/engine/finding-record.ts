import {
  EXPOSURE_CHANNELS, ExposedKind, ExposureChannel, Evidence, FindingExposure, findingWords, FindingVariant, owaspCategoryName, Proof, probeFingerprint, ProvenWeakness, Severity, Shown,
  ToolRisk, Turn, Verdict, Vulnerability, Weakness,
} from '@gauntlet/domain';
import { discloses, Probe } from '../probes/probe';
import { stableId } from '../ids';

/**
 * A weakness as the finding book holds it, and the finding it is written as: its strongest
 * instance is the evidence, the strongest instance of each other probe (then of each other way
 * in) a variant, every instance counted; its words come from what they showed (libs/domain
 * weakness-wording.ts), never from the probe.
 */

/** A value an instance gave away, as its finding will list it. */
export interface ExposureSeen {
  /** one per value: `sensitive:<label>`, `canary:<label>`, or the untold value's identity */
  key: string;
  kind: ExposedKind;
  source: 'canary' | 'sensitive' | 'recurrence';
  label?: string;
  shape?: string;
  /** masked */
  shown: string;
  full: boolean;
  channel: ExposureChannel;
  proof?: Proof;
}

/** One conversation that showed a weakness. */
export interface Instance {
  probe: Probe;
  technique: string;
  converters: string[];
  phase: 'probe' | 'amplify';
  turns: Turn[];
  foundAt: Date;
  attemptId: string;
  /** what the detectors made of it (absent on a request to a planted address, which is its own proof) */
  verdict?: Verdict;
  how: string;
  read_as?: string;
  shown: Shown;
  detector: string;
  matched: string | null;
  proof?: Proof;
  severity: Severity;
  confidence: number;
  /** the values it gave away (a disclosure's) */
  exposed: ExposureSeen[];
  tool_risk?: ToolRisk;
  /** a claim of an action: the words */
  claim?: string;
  /** markup a page ran, or an address it carried that was loaded */
  observed?: boolean;
  /** an untold value: as seen, for the ledger to name it at the end */
  sample?: { value: string; anchors?: string[] };
  /** an untold datum: the person's name its record gave just before it, whose it may be */
  nearName?: string;
}

export interface ExposureTally {
  seen: ExposureSeen;
  attempts: Set<string>;
  probes: Set<string>;
  first: Date;
  via: Set<ExposureChannel>;
  whole: boolean;
}

export interface Entry {
  weakness: Weakness;
  shown: Shown;
  main: Instance;
  /** the strongest instance of every other probe and way in (probe, technique, converters) */
  byChain: Map<string, Instance>;
  /** every conversation that showed it: its probe, when first */
  attempts: Map<string, { probe: Probe; at: Date }>;
  exposures: Map<string, ExposureTally>;
  claims: string[];
  samples: { value: string; anchors?: string[] }[];
}

/** Variants kept per finding (one per probe first), and characters kept of each of their turns: every attempt is whole in the scan's events. */
export const MAX_VARIANTS = 25;
const VARIANT_TURN_CHARS = 600;
const bound = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters not recorded]`);

const DISCLOSURE_KINDS = new Set<Shown['kind']>(['value', 'person', 'credential', 'data', 'wording', 'carried', 'retrieval']);

function evidenceOf(i: Instance, maxChars: number): Evidence {
  return {
    turns: i.turns.map((t) => ({ ...t, content: bound(t.content, maxChars) })),
    detector: i.detector,
    matched: i.proof?.text ?? i.matched,
    ...(i.read_as && { read_as: i.read_as }),
    ...(i.proof && { proof: i.proof }),
    // an answer longer than is judged: how much of each the detectors read
    ...(i.verdict?.judged_chars && { judged_chars: i.verdict.judged_chars }),
  };
}

/** every probe that showed it, the evidence's first, then in the order they first did */
function waysIn(entry: Entry): Probe[] {
  const first = new Map<string, { probe: Probe; at: Date }>();
  for (const { probe, at } of entry.attempts.values()) {
    const prior = first.get(probe.id);
    if (!prior || at < prior.at) first.set(probe.id, { probe, at });
  }
  const main = entry.main.probe.id;
  return [...first.values()].sort((a, b) => Number(b.probe.id === main) - Number(a.probe.id === main) || a.at.getTime() - b.at.getTime() || a.probe.id.localeCompare(b.probe.id)).map((x) => x.probe);
}

/** the variants: the strongest instance of each other probe first, then of each other way in, at most MAX_VARIANTS, in the order found */
function variantsOf(entry: Entry, outranks: (b: Instance, a: Instance) => boolean): FindingVariant[] {
  const others = [...entry.byChain.values()].filter((i) => i.attemptId !== entry.main.attemptId);
  const byProbe = new Map<string, Instance>();
  for (const i of others) {
    if (i.probe.id === entry.main.probe.id) continue;
    const prior = byProbe.get(i.probe.id);
    if (!prior || outranks(i, prior)) byProbe.set(i.probe.id, i);
  }
  const order = (a: Instance, b: Instance) => (outranks(a, b) ? -1 : outranks(b, a) ? 1 : 0);
  const first = [...byProbe.values()].sort(order);
  const rest = others.filter((i) => !first.includes(i)).sort(order);
  return [...first, ...rest]
    .slice(0, MAX_VARIANTS)
    .sort((a, b) => a.foundAt.getTime() - b.foundAt.getTime() || a.attemptId.localeCompare(b.attemptId))
    .map((i) => ({ probe_id: i.probe.id, technique: i.technique, converters: i.converters, how: i.how, phase: i.phase, evidence: evidenceOf(i, VARIANT_TURN_CHARS), found_at: i.foundAt.toISOString() }));
}

function exposuresOf(entry: Entry): FindingExposure[] {
  return [...entry.exposures.values()]
    .sort((a, b) => a.first.getTime() - b.first.getTime() || a.seen.key.localeCompare(b.seen.key))
    .map((t) => ({
      kind: t.seen.kind,
      source: t.seen.source,
      ...(t.seen.label && { label: t.seen.label }),
      ...(t.seen.shape && { shape: t.seen.shape }),
      shown: t.seen.shown,
      whole: t.whole,
      conversations: t.attempts.size,
      probes: [...t.probes].sort(),
      first_seen: t.first.toISOString(),
      via: EXPOSURE_CHANNELS.filter((c) => t.via.has(c)),
      rotate: t.seen.kind === 'credential',
    }));
}

/**
 * The fingerprints the weakness's instances had when a finding was a probe and a category: each
 * instance's probe under this category, and for a disclosure drawn out by a disclosure probe, under
 * that probe's own category too (a prompt leak holding data was filed under both then).
 */
function supersededBy(entry: Entry): string[] {
  const out = new Set<string>();
  const category = entry.weakness.category;
  const disclosure = DISCLOSURE_KINDS.has(entry.shown.kind);
  for (const { probe } of entry.attempts.values()) {
    out.add(probeFingerprint(probe.id, category));
    if (disclosure && discloses(probe) && probe.category !== category) out.add(probeFingerprint(probe.id, probe.category));
  }
  return [...out].sort();
}

/** what its instances showed, for its words */
function wordsOf(entry: Entry, exposures: readonly FindingExposure[]) {
  const { main } = entry;
  const instances = [main, ...entry.byChain.values()];
  return findingWords({
    shown: entry.shown,
    exposures,
    via: EXPOSURE_CHANNELS.filter((c) => exposures.some((e) => e.via.includes(c))),
    ways_in: waysIn(entry).map((p) => ({ probe_id: p.id, title: p.title })),
    conversations: entry.attempts.size,
    ...(main.proof && { proof: main.proof }),
    ...(main.tool_risk && { tool_risk: main.tool_risk }),
    claims: entry.claims,
    partial: main.verdict?.outcome === 'partial',
    observed: instances.some((i) => i.observed),
    ...(entry.shown.kind === 'probe' && { probe: main.probe }),
  });
}

/** The weakness as a finding (the API's vulnerability record). */
export function findingRecord(scanId: string, entry: Entry, maxRecordedChars: number, outranks: (b: Instance, a: Instance) => boolean): Vulnerability {
  const { main, weakness } = entry;
  const exposures = exposuresOf(entry);
  const words = wordsOf(entry, exposures);
  const found = Math.min(...[...entry.attempts.values()].map((a) => a.at.getTime()));
  return {
    id: stableId(scanId, 'vulnerability', weakness.fingerprint),
    probe_id: main.probe.id,
    category: weakness.category,
    category_name: owaspCategoryName(weakness.category) ?? weakness.category,
    title: words.title,
    severity: main.severity,
    confidence: Math.round(main.confidence * 100) / 100,
    technique: main.technique,
    converters: main.converters,
    how: main.how,
    description: words.description,
    evidence: evidenceOf(main, maxRecordedChars),
    remediation: words.remediation,
    references: words.references,
    phase: main.phase,
    found_at: new Date(found).toISOString(),
    fingerprint: weakness.fingerprint,
    variants: variantsOf(entry, outranks),
    probes: [...new Set([...entry.attempts.values()].map((a) => a.probe.id))].sort(),
    conversations: entry.attempts.size,
    attempt_ids: [...entry.attempts.keys()].sort(),
    supersedes: supersededBy(entry),
    exposures,
  };
}

/** A weakness as it is named the moment its first instance proves it (the live count). */
export function provenWeakness(entry: Entry): ProvenWeakness {
  const exposures = exposuresOf(entry);
  return {
    fingerprint: entry.weakness.fingerprint,
    probe_id: entry.main.probe.id,
    category: entry.weakness.category,
    category_name: owaspCategoryName(entry.weakness.category) ?? entry.weakness.category,
    title: wordsOf(entry, exposures).title,
  };
}
