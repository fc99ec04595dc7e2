import { argumentsText } from './proof-wording';
import type { ProofKind, ProofMatch } from './vulnerability';

/**
 * A fact of its own a proof kind carries beside its words (a tool call's tool and arguments, an
 * out-of-band request's method, path, host, query and time): its name (the field every surface
 * names it by: `tool` in the webhook envelope, `proof_tool` in syslog's structured data), what it
 * is in words, and how it is read from the proof, on one line and bounded (undefined: the proof has
 * none, and the field is left out).
 */
export interface ProofFact {
  name: string;
  label: string;
  read(m: ProofMatch): string | undefined;
}

/**
 * Each proof kind's facts, in the order surfaces list them: the one declaration the webhook
 * envelope's `proof` and syslog's `proof_*` parameters are derived from. A kind added to
 * `PROOF_KINDS` does not compile until it is here (with none, for a kind that is a quote of the answer).
 */
export const PROOF_FACTS: { readonly [K in ProofKind]: readonly ProofFact[] } = {
  canary: [],
  sensitive: [],
  recurrence: [],
  obedience: [],
  markup: [],
  invention: [],
  tool_call: [
    { name: 'tool', label: 'the tool the agent called', read: (m) => m.tool ?? '' },
    { name: 'arguments', label: 'its arguments as the agent sent them, each value as JSON, bounded to 300 characters (`to="a@evil.example", amount=5000`)', read: (m) => argumentsText(m.arguments) },
  ],
  out_of_band: [
    { name: 'method', label: 'the method of the request that reached the planted address (DNS for a lookup)', read: (m) => m.method ?? 'GET' },
    { name: 'path', label: 'its path', read: (m) => m.path ?? '' },
    { name: 'host', label: 'the host name that carried the token (a lookup, method DNS, or a request to <token>.<CALLBACK_DOMAIN>)', read: (m) => m.host || undefined },
    { name: 'query', label: 'its query', read: (m) => m.query || undefined },
    { name: 'at', label: 'when it arrived', read: (m) => m.at || undefined },
  ],
};

/** a kind's declared facts (none for a kind recorded by a later version than this one knows) */
export const proofFactsOf = (kind: string): readonly ProofFact[] => (Object.hasOwn(PROOF_FACTS, kind) ? PROOF_FACTS[kind as ProofKind] : []);

/** the proof's own facts, name and value, those it has in declaration order */
export function proofFacts(m: ProofMatch): [name: string, value: string][] {
  return proofFactsOf(m.kind).flatMap((f) => {
    const value = f.read(m);
    return value === undefined ? [] : [[f.name, value] as [string, string]];
  });
}
