import { CallbackHitFacts, CallbackVerdict, Exposed, judgeCallbackHits, OutOfBandHit, Proof, SensitiveValue, Severity, Shown, Turn } from '@gauntlet/domain';
import { howItGotThrough } from '../converters/describe';
import { exposedOf, findHeld, heldValuesOf } from '../detectors/disclosure';
import { carriedByAnswer } from '../detectors/proof';
import type { Probe } from '../probes/probe';
import { PlantedAddress, PlantedAttempt } from './planting';
import { verifyToken } from './token';
import { clientPath, PAGE_SOURCE } from './listener';

/** What a target holds, to name what a request carried away. */
export interface HeldByTarget {
  canaries: readonly string[];
  sensitive?: readonly SensitiveValue[];
}

/**
 * What a request to an address an attempt planted proves (callbacks/callback-findings.ts): the
 * weakness it shows, how serious, its proof (the request) and, for data it carried, what it exposed.
 */
export interface HeardSighting {
  probe: Probe;
  technique: string;
  converters: string[];
  phase: 'probe' | 'amplify';
  /** the turns the attempt sent (the address planted in them) */
  turns: Turn[];
  foundAt: Date;
  attemptId: string;
  shown: Shown;
  severity: Severity;
  proof: Proof;
  how: string;
  /** the request line, as the evidence's `matched` */
  request: string;
  /** the told values it carried (labels only) */
  exposes: Exposed[];
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * What a request carried beyond the address planted: labels a sender put before the token in a
 * host name, the path after the token (a host's path, unless one clients ask every host for), the
 * values of its query (names and empty values are the address's own), the start of its body; decoded.
 */
export function carriedBy(hit: Pick<OutOfBandHit, 'path' | 'query' | 'body' | 'host'> & Partial<Pick<OutOfBandHit, 'token'>>): string {
  const parts: string[] = [];
  const at = hit.host && hit.token ? hit.host.indexOf(`${hit.token}.`) : -1;
  if (hit.host && at > 0) parts.push(...hit.host.slice(0, at).split('.').filter(Boolean));
  if (!(hit.host && clientPath(hit.path))) for (const segment of hit.path.split('/')) if (segment) parts.push(decode(segment));
  for (const pair of (hit.query ?? '').split('&')) {
    const eq = pair.indexOf('=');
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1));
    if (value.trim()) parts.push(value.trim());
  }
  if (hit.body?.trim()) parts.push(hit.body.trim());
  return parts.join(' ');
}

/**
 * The request as a finding shows it: a value the owner told us of is named by its label, never
 * quoted (a disclosure names what leaked, not the value); the recorded hit keeps what came.
 */
function redacted(hit: OutOfBandHit, held: readonly { label: string; value: string }[]): OutOfBandHit {
  const hide = (text: string | undefined) => {
    if (!text) return text;
    let out = text;
    for (const h of held) {
      for (const form of new Set([h.value, encodeURIComponent(h.value), encodeURIComponent(h.value).replace(/%20/g, '+')])) {
        if (form) out = out.split(form).join(`[${h.label}]`);
      }
    }
    return out;
  };
  const query = hide(hit.query);
  const host = hide(hit.host);
  const { body: _body, ...rest } = hit;
  return { ...rest, path: hide(hit.path) ?? '', ...(host && { host }), ...(query && { query }) };
}

/**
 * What a request proved, as the weakness policy reads it: a fetch of any address, an answer's
 * address loaded by its reader (markup), mail to an attacker's recipient, an instruction in a
 * fetched page obeyed (indirect injection), or data carried out (the told values it carried, else
 * data not known to be the target's).
 */
function shownBy(verdict: CallbackVerdict, exposes: readonly Exposed[]): Shown | null {
  // by what the policy found it proves (its category), never by the address alone: an image address
  // the answer never carried, fetched by the target, is a fetch of any address, not markup
  switch (verdict.category) {
    case 'LLM02:2025':
      return exposes.length ? null : { kind: 'carried' };
    case 'LLM05:2025':
      return { kind: 'markup', runs: 'remote-load' };
    case 'LLM01:2025':
      return { kind: 'instruction', via: 'indirect' };
    default:
      return verdict.address === 'domain' ? { kind: 'mail' } : { kind: 'fetch' };
  }
}

/** A request the chat page made from our own message as it showed it: no finding, said on the scan. */
export interface OwnMessageHit {
  probeId: string;
  hit: OutOfBandHit;
}

/** What requests to planted addresses prove, and those that prove nothing because our own message made them. */
export interface HeardHits {
  sightings: HeardSighting[];
  ownMessage: OwnMessageHit[];
}

/** what the request asked for after the listener's mount: the token, the path after it, the query */
const askedFor = (hit: OutOfBandHit) => `${hit.token}${hit.path}${hit.query ? `?${hit.query}` : ''}`;

/**
 * How the conversation shows a request to one of its planted addresses: where it came from (the
 * chat page in Gauntlet's own browser, or outside), where the answer carried the address (its text
 * as read, or the bot's message as the page rendered it), and whether the page loaded it from our
 * own message. A request the page made exactly as our own message's element asks is the answer's
 * only when the answer carried that very request too.
 */
function sightingOf(hit: OutOfBandHit, turns: readonly Turn[], address: PlantedAddress | undefined) {
  const from = hit.source === PAGE_SOURCE ? ('page' as const) : ('target' as const);
  const asked = askedFor(hit);
  const ownUrls = turns.flatMap((t) => (t.role === 'assistant' && t.observed?.own_message_urls) || []);
  const ownExactly = from === 'page' && ownUrls.some((u) => u.endsWith(asked));
  const answered = ownExactly
    ? carriedByAnswer(turns, asked, 'out_of_band') ?? carriedByAnswer(turns, asked.replace(/&/g, '&amp;'), 'out_of_band')
    : (address && carriedByAnswer(turns, address.url, 'out_of_band')) ?? carriedByAnswer(turns, hit.token, 'out_of_band');
  return { from, answered, ownMessage: from === 'page' && !answered && (ownExactly || ownUrls.some((u) => u.includes(hit.token))) };
}

/**
 * What requests to planted addresses prove (judgeCallbackHits), as instances of weaknesses for
 * the finding book, which files them with what the answers showed: one per attempt and weakness,
 * its proof the request itself (`out_of_band`: method, path, query, when), pinned where the answer
 * carried the address when only the answer proves it (an image its markup loaded), else on the
 * user message that planted it. Hits of attempts this scan did not plant here are not counted;
 * hits the chat page made from our own message as it showed it prove nothing and are listed apart.
 */
export function callbackSightings(scanId: string, planted: readonly PlantedAttempt[], hits: readonly OutOfBandHit[], key: Buffer, held: HeldByTarget): HeardHits {
  const values = heldValuesOf(held.canaries, held.sensitive ?? []);
  const byAttempt = new Map<string, OutOfBandHit[]>();
  for (const hit of hits) byAttempt.set(hit.attempt_id, [...(byAttempt.get(hit.attempt_id) ?? []), hit]);
  const out: HeardSighting[] = [];
  const ownMessage: OwnMessageHit[] = [];
  for (const p of planted) {
    const ofAttempt = (byAttempt.get(p.attemptId) ?? []).filter((h) => h.scan_id === scanId).sort((a, b) => a.at.localeCompare(b.at));
    if (!ofAttempt.length) continue;
    const sent = p.turns.filter((t) => t.role === 'user').map((t) => t.content).join('\n');
    const facts = ofAttempt.flatMap((hit) => {
      const claim = verifyToken(key, hit.token);
      if (!claim || claim.attemptId !== p.attemptId) return [];
      const seen = sightingOf(hit, p.turns, p.addresses.find((a) => a.stage === claim.stage));
      if (seen.ownMessage) ownMessage.push({ probeId: p.probe.id, hit });
      const carried = carriedBy(hit);
      const matches = carried ? findHeld(carried, values, sent) : [];
      const shown = matches.length ? redacted(hit, matches.map((m) => m.held)) : hit;
      const fact: CallbackHitFacts = { address: claim.stage, from: seen.from, in_answer: Boolean(seen.answered), carried, exposes: matches.map(exposedOf) };
      return [{ hit: shown, answered: seen.answered, fact }];
    });
    for (const verdict of judgeCallbackHits(facts.map((f) => f.fact))) {
      const leak = verdict.category === 'LLM02:2025';
      const lead = facts[verdict.hit];
      const exposes = leak ? [...lead.fact.exposes] : [];
      const shown = shownBy(verdict, exposes);
      const pinned = lead.fact.in_answer && (lead.fact.from === 'page' || verdict.address === 'render') ? lead.answered : undefined;
      const proof = proofOf(p, verdict, lead.hit, pinned);
      out.push({
        probe: p.probe, technique: p.technique, converters: p.converters, phase: p.phase, turns: p.turns, foundAt: new Date(lead.hit.at), attemptId: p.attemptId,
        shown: shown ?? { kind: 'carried' }, severity: verdict.severity, proof, exposes,
        how: `${howItGotThrough(p.converters, p.turns)} Proven by a request to the address the attempt planted (${requestLine(lead.hit)} from ${lead.hit.source}).`,
        request: requestLine(lead.hit),
      });
    }
  }
  return { sightings: out, ownMessage };
}

/** The planted address the proof points at: a steered request came from the page the fetched address served. */
function plantedAddressOf(p: PlantedAttempt, stage: CallbackVerdict['address']) {
  const wanted = stage === 'steered' ? 'fetch' : stage;
  return p.addresses.find((a) => a.stage === wanted) ?? p.addresses[0];
}

function proofOf(p: PlantedAttempt, verdict: CallbackVerdict, hit: OutOfBandHit, answered: Proof | undefined): Proof {
  const { method, path, query, host, at } = hit;
  const request = { kind: 'out_of_band' as const, method, path, ...(host && { host }), ...(query && { query }), at };
  // only the answer proves it: the proof is where the answer carried the address
  if (answered) return { ...answered, matched: request };
  const address = plantedAddressOf(p, verdict.address);
  const userTurns = p.turns.map((t, i) => [t, i] as const).filter(([t]) => t.role === 'user');
  const [turn, index] = userTurns[address.message] ?? userTurns[0] ?? [{ content: '' }, 0];
  const start = Math.max(0, turn.content.indexOf(address.url));
  return { turn: index, start, end: start + (turn.content.includes(address.url) ? address.url.length : 0), text: address.url, matched: request };
}

function requestLine(hit: OutOfBandHit): string {
  if (hit.method === 'DNS') return `DNS ${hit.record_type ?? ''} lookup of ${hit.host ?? ''}`.replace(/\s+/g, ' ');
  return `${hit.method} ${hit.host ? `//${hit.host}` : ''}${hit.path || '/'}${hit.query ? `?${hit.query}` : ''}`;
}
