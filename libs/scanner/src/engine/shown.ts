import { ExposureChannel, Shown, Turn, Verdict } from '@gauntlet/domain';
import { candidateKey, HeldValue } from '../detectors/disclosure';
import { markupRuns } from '../detectors/rules';
import { instructionVia, Probe } from '../probes/probe';

/**
 * What one conversation showed, in the words of the weakness policy (`Shown`, libs/domain
 * weakness.ts): the facts a weakness is named from, read off the probe, its verdict and what the
 * answer gave away. The policy decides the weakness; this only says what was seen.
 */

/**
 * The probe's own weakness, from its verdict (null: it showed none of its own, or only a value it
 * gave away, which the disclosure path files). A call proves what the agent did: steered by a
 * tool's result it is an instruction followed, else the tool misused. A rule names the rest; a
 * verdict no rule of ours gave (a second opinion) is read by the probe's category.
 */
export function ownShown(probe: Probe, v: Verdict): Shown | null {
  if (v.proof?.matched.kind === 'tool_call') {
    if (instructionVia(probe) === 'indirect' || probe.category === 'LLM01:2025') return { kind: 'instruction', via: 'indirect' };
    return { kind: 'tool', tool: v.proof.matched.tool ?? 'a tool', risk: v.tool_risk ?? 'write' };
  }
  switch (v.detector) {
    case 'tool-call':
      // the code word only a tool's result asked for, written in the answer
      return { kind: 'instruction', via: 'indirect' };
    case 'agency':
      // an intent ("I'll reset it once verified") is neither an act nor a claim of one: it drives
      // escalation and files nothing
      return v.outcome === 'partial' ? null : { kind: 'claim' };
    case 'markup':
    case 'page-effects':
      return { kind: 'markup', runs: markupRuns(v.proof?.text ?? v.matched ?? '') };
    case 'canary':
    case 'override':
      return { kind: 'instruction', via: instructionVia(probe) };
    case 'misinformation':
      return { kind: 'invention', of: probe.technique === 'package-hallucination' ? 'package' : 'fact' };
    case 'consumption':
      return { kind: 'consumption' };
    case 'system-prompt':
      return { kind: 'wording' };
    case 'pattern':
      return { kind: 'probe', probe_id: probe.id, category: probe.category };
    case 'secrets':
    case 'pii':
    case 'sensitive':
    case 'target-canary':
      return null;
  }
  switch (probe.category) {
    case 'LLM01:2025':
      return { kind: 'instruction', via: instructionVia(probe) };
    case 'LLM06:2025':
      // judged from words: no call was made
      return { kind: 'claim' };
    case 'LLM07:2025':
      return { kind: 'wording' };
    case 'LLM08:2025':
      return { kind: 'retrieval' };
    case 'LLM09:2025':
      return { kind: 'invention', of: probe.technique === 'package-hallucination' ? 'package' : 'fact' };
    case 'LLM10:2025':
      return { kind: 'consumption' };
  }
  return { kind: 'probe', probe_id: probe.id, category: probe.category };
}

/**
 * The told value an untold candidate is part of (a credential's user and host, a name the owner
 * told): then it is that value, however it was recited, and never a second weakness. A credential
 * in pieces belongs to a told one when one of its anchors is in it; a value, when one holds the other.
 */
export function toldValueOf(c: { value: string; anchors?: readonly string[] }, held: readonly HeldValue[]): HeldValue | null {
  const parts = c.anchors?.length ? c.anchors.map((a) => candidateKey(a.slice(a.indexOf(':') + 1))) : [candidateKey(c.value)];
  for (const h of held) {
    const told = candidateKey(h.value);
    if (told.length < 4) continue;
    if (parts.some((p) => p.length >= 4 && (told.includes(p) || p.includes(told)))) return h;
  }
  return null;
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"')\]]+|\]\(\s*[^)\s]+/gi;

/**
 * How a value an answer gave away left: inside an address the answer built (an image, a link a
 * page would load or follow), or said in the answer. (A request to an attacker's address is the
 * callback findings'.)
 */
export function channelOf(turns: readonly Turn[], at: { turn: number; start: number; end: number; read_as?: string } | undefined): ExposureChannel {
  if (!at || at.read_as) return 'answer';
  const text = turns[at.turn]?.content ?? '';
  for (const m of text.matchAll(URL_IN_TEXT)) {
    if (m.index! <= at.start && at.end <= m.index! + m[0].length) return 'link';
  }
  return 'answer';
}
