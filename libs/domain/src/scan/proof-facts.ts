import { argumentsText, outOfBandRequest } from './proof-wording';
import type { ProofKind, ProofMatch } from './vulnerability';

/**
 * A fact of its own a proof kind carries beside its words (a tool call's tool and arguments, an
 * out-of-band request and when it arrived): its name (the field every surface names it by: `tool`
 * in the webhook envelope, `proof_tool` in syslog's structured data), what it is in words, and how
 * it is read from the proof, on one line and bounded (undefined: the proof has none, and the field
 * is left out).
 */
export interface ProofFact<Name extends string = string> {
  name: Name;
  label: string;
  read(m: ProofMatch): string | undefined;
  /**
   * the fact whole, for a view that keeps it as data where the line bounds it to words (a call's
   * arguments as the JSON the agent sent); the line when absent
   */
  whole?(m: ProofMatch): string | undefined;
}

/** a field the proof records, which a fact on its own is (the API shows `matched` as recorded) */
type RecordedField = Exclude<keyof ProofMatch, 'kind'>;

/**
 * A fact as declared: a field the proof records, or a line made of such fields (a request's method,
 * path, host and query, its `parts`). A view with a field for each fact on its own (the webhook
 * envelope, syslog, CEF, the API's `matched`) shows the parts; one with a field per line (CSV,
 * SARIF) shows the line.
 */
type Declaration = (ProofFact<RecordedField> & { parts?: never }) | (ProofFact & { parts: readonly ProofFact<RecordedField>[] });

/**
 * Each proof kind's facts, in the order surfaces list them: the one declaration every view that
 * shows them as fields of their own derives them from (the webhook envelope's `proof`, syslog's
 * `proof_*`, CEF's keys, the CSV report's and SARIF's proof columns, the API document's
 * `proof.matched`). A kind added to `PROOF_KINDS` does not compile until it is here (with none, for
 * a kind that is a quote of the answer); a fact added here does not compile until each view that
 * names its fields says where it goes (`ProofLineName`, `ProofFactName`).
 */
export const PROOF_FACTS = {
  canary: [],
  sensitive: [],
  recurrence: [],
  obedience: [],
  markup: [],
  invention: [],
  tool_call: [
    { name: 'tool', label: 'the tool the agent called', read: (m) => m.tool ?? '' },
    {
      name: 'arguments',
      label: 'its arguments as the agent sent them (an object, or the raw text when it was not JSON)',
      // one line: each value as JSON, bounded (`to="a@evil.example", amount=5000`, at most 300 characters)
      read: (m) => argumentsText(m.arguments),
      whole: (m) => (m.arguments === undefined ? undefined : typeof m.arguments === 'string' ? m.arguments : JSON.stringify(m.arguments)),
    },
  ],
  out_of_band: [
    {
      name: 'request',
      label: 'the request that reached the planted address, on one line: "GET /oob/…/page?d=Jane", "DNS lookup of <host>"',
      read: (m) => outOfBandRequest(m),
      parts: [
        { name: 'method', label: 'the method of the request that reached the planted address (DNS for a lookup)', read: (m) => m.method ?? 'GET' },
        { name: 'path', label: 'its path', read: (m) => m.path ?? '' },
        { name: 'host', label: 'the host name that carried the token (a DNS lookup, method DNS, or an HTTP request to <token>.<CALLBACK_DOMAIN>)', read: (m) => m.host || undefined },
        { name: 'query', label: 'its query string, without the "?"', read: (m) => m.query || undefined },
      ],
    },
    { name: 'at', label: 'when it arrived', read: (m) => m.at || undefined },
  ],
} as const satisfies { readonly [K in ProofKind]: readonly Declaration[] };

type Declared = (typeof PROOF_FACTS)[ProofKind][number];
type PartsOf<F> = F extends { readonly parts: readonly (infer P)[] } ? P : F;

/** a fact as a view with a field per line names it: `tool`, `arguments`, `request`, `at` */
export type ProofLineName = Declared['name'];
/** a fact on its own, as the proof records it: `tool`, `arguments`, `method`, `path`, `host`, `query`, `at` */
export type ProofFactName = PartsOf<Declared>['name'];

/** a kind's fact as a line, with the facts it is made of when it is made of parts */
export type ProofLine = ProofFact<ProofLineName> & { parts?: readonly ProofFact<ProofFactName>[] };

/** a kind's facts as lines, a fact made of parts on its one line (none for a kind recorded by a later version than this one knows) */
export const proofLinesOf = (kind: string): readonly ProofLine[] => (Object.hasOwn(PROOF_FACTS, kind) ? (PROOF_FACTS[kind as ProofKind] as readonly ProofLine[]) : []);

/** a kind's facts each on its own, a line made of parts as its parts (none for a kind recorded by a later version than this one knows) */
export const proofFactsOf = (kind: string): readonly ProofFact<ProofFactName>[] => proofLinesOf(kind).flatMap((f) => f.parts ?? [f as ProofFact<ProofFactName>]);

const values = <N extends string>(facts: readonly ProofFact<N>[], m: ProofMatch): [name: N, value: string][] =>
  facts.flatMap((f) => {
    const value = f.read(m);
    return value === undefined ? [] : [[f.name, value] as [N, string]];
  });

/** the proof's own facts each on its own, name and value, those it has in declaration order */
export const proofFacts = (m: ProofMatch): [name: ProofFactName, value: string][] => values(proofFactsOf(m.kind), m);

/** the proof's own facts as lines (a request on one line), name and value, those it has in declaration order */
export const proofLines = (m: ProofMatch): [name: ProofLineName, value: string][] => values(proofLinesOf(m.kind), m);
