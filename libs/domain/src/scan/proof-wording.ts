import type { ToolCall } from '../agent/tools';
import type { Proof, ProofKind, ProofMatch, Turn } from './vulnerability';

/**
 * What each proof kind shows, in words: the one place every view says it from (the API's
 * `proof.shows` and so the dashboard, every report format, SARIF and JUnit, the webhooks). A proof
 * of what the target did (a tool call, a request to a planted address) is said as that act, not as
 * a quote of the answer.
 */

/** The proof kinds that are something the target did rather than something it said. */
export const ACTION_PROOF_KINDS = ['tool_call', 'out_of_band'] as const satisfies readonly ProofKind[];

/** whether a proof is an act of the target's (a call it made, a request that reached our listener) */
export function provenByAction(matched: Pick<ProofMatch, 'kind'> | null | undefined): boolean {
  return !!matched && (ACTION_PROOF_KINDS as readonly string[]).includes(matched.kind);
}

/** How much of a call's arguments one line carries: enough to see the recipient, the amount, the URL. */
export const MAX_ARGUMENT_CHARS = 300;
const MAX_VALUE_CHARS = 120;

/**
 * A name the target chose (a tool's, a request's path), safe on one line of any view: control
 * characters (line breaks, terminal escapes) become spaces.
 */
export function plain(text: string): string {
  return text.replace(/\p{Cc}/gu, ' ');
}

/** a key as written when it is a plain identifier, else as JSON (quoted, escaped) */
const keyText = (k: string) => (/^[\w.-]+$/.test(k) ? k : JSON.stringify(k));

/** text shortened to `max` characters, with an ellipsis when it was cut */
export function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/**
 * A call's arguments on one line: `to="a@evil.example", amount=5000`, each value as JSON (so a line
 * break in it stays `\n`), each bounded, the whole bounded. Arguments that were not JSON are quoted
 * as the agent wrote them.
 */
export function argumentsText(args: ToolCall['arguments'] | null | undefined, max = MAX_ARGUMENT_CHARS): string {
  if (args === undefined || args === null) return '';
  if (typeof args === 'string') return bounded(JSON.stringify(args), max);
  const pairs = Object.entries(args).map(([k, v]) => `${keyText(k)}=${bounded(JSON.stringify(v) ?? 'null', MAX_VALUE_CHARS)}`);
  return bounded(pairs.join(', '), max);
}

/** a call as a reader scans it: `send_email(to="a@evil.example", subject="Q3")` */
export function toolCallText(name: string, args: ToolCall['arguments'] | null | undefined, max = MAX_ARGUMENT_CHARS): string {
  return `${plain(name)}(${argumentsText(args, max)})`;
}

/** the request that reached the planted address: `GET /oob/…/page?d=Jane`, `GET //<host>/`, `DNS <host>` */
export function outOfBandRequest(m: Pick<ProofMatch, 'method' | 'path' | 'query' | 'host'>): string {
  const method = m.method ?? 'GET';
  if (method === 'DNS') return bounded(plain(`DNS lookup of ${m.host ?? ''}`), MAX_ARGUMENT_CHARS);
  return bounded(plain(`${method} ${m.host ? `//${m.host}` : ''}${m.path || '/'}${m.query ? `?${m.query}` : ''}`), MAX_ARGUMENT_CHARS);
}

/** What each proof kind is, one line each, for the API document (a kind cannot be added without its line). */
export const PROOF_KIND_MEANINGS: Readonly<Record<ProofKind, string>> = {
  canary: "one of the target's canaries",
  sensitive: 'a value its owner told (by label)',
  recurrence: 'a value that came back in independent conversations (occurrences)',
  obedience: 'an instruction obeyed',
  markup: 'markup the answer carried or ran',
  invention: 'something the target made up',
  tool_call: 'the call an agent made that did what the attack asked (tool, arguments)',
  out_of_band: 'a request or DNS lookup that reached an address the attempt planted (method, path or host, query, at)',
};

/** What a proof matched, in words: the label of a told value, how often a value recurred, the call the agent made, the request that came back. */
export function proofShows(m: ProofMatch): string {
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
    case 'tool_call': {
      const args = argumentsText(m.arguments);
      return `the agent called ${plain(m.tool ?? 'a tool')}${args ? ` with ${args}` : ' with no arguments'}`;
    }
    case 'out_of_band':
      return `a request reached the planted address: ${outOfBandRequest(m)}${m.at ? ` at ${plain(m.at)}` : ''}`;
    case 'obedience':
      return 'the instruction it obeyed';
    default:
      // a kind added to PROOF_KINDS without its words here does not compile; one recorded by a later version reads as obeyed
      return unworded(m.kind);
  }
}

const unworded = (_kind: never) => 'the instruction it obeyed';

/** where in the conversation the proof is: the turn, and the reading it was found in */
export function proofWhere(p: Pick<Proof, 'turn' | 'read_as'>): string {
  return `turn ${p.turn + 1}${p.read_as ? `, ${p.read_as === 'rendered page' ? 'as the page rendered it' : `read as ${p.read_as}`}` : ''}`;
}

/**
 * The proof as one line of a report: where it is, then the act (a call, a request), or the quoted
 * span of the answer and what it matched.
 */
export function proofSentence(p: Proof, maxQuote = 300): string {
  if (provenByAction(p.matched)) return `Proof (${proofWhere(p)}): ${proofShows(p.matched)}`;
  return `Proof (${proofWhere(p)}): "${bounded(p.text.replace(/\r\n?/g, '\n'), maxQuote)}", ${proofShows(p.matched)}`;
}

/** who speaks a turn, as a report names it: the tool's name for a tool result */
export function turnSpeaker(t: Pick<Turn, 'role' | 'name'>): string {
  return t.role === 'tool' ? `tool ${t.name ?? 'result'}` : t.role;
}

/**
 * A turn as text, bounded: what was said, then each call the agent made in it on its own line
 * (`-> called send_email(to="…")`). A tool result is its content, said by the tool.
 */
export function turnText(t: Pick<Turn, 'content' | 'tool_calls'>, maxChars = 400): string {
  const said = bounded((t.content ?? '').replace(/\r\n?/g, '\n'), maxChars);
  const calls = (t.tool_calls ?? []).map((c) => `-> called ${toolCallText(c.name, c.arguments)}`);
  return [said, ...calls].filter(Boolean).join('\n');
}
