import type { Schemas } from '../../api/client';
import { turnRoles } from '../../api/enums';
import { h, type Child } from '../../widgets/dom';

type Evidence = Schemas['EvidenceView'];
type Turn = Schemas['TurnView'];
type Proof = Schemas['ProofView'];
type ToolCall = Schemas['ToolCallView'];

/** a call's arguments as shown: pretty-printed, and bounded (an agent can send a whole document) */
const MAX_ARGUMENT_CHARS = 2000;
const MAX_ARGUMENT_LINES = 40;

const ROLE_LABEL: Readonly<Record<string, string>> = { user: 'Gauntlet (attacker)', assistant: 'Target', system: 'System' };

/**
 * The conversation a finding's evidence recorded, each turn as what it is: what Gauntlet sent,
 * what the target answered, each tool the agent called (name, arguments), each result Gauntlet
 * answered the call with, and, for an out-of-band proof, the request that reached the planted
 * address. The proof is marked where it is: the span of an answer, the call, or the request.
 */
export function conversation(evidence: Evidence | undefined): HTMLOListElement {
  const proof = evidence?.proof;
  const turns = evidence?.turns ?? [];
  const callAt = proof?.matched?.kind === 'tool_call' ? proofCall(turns, proof) : null;
  return h(
    'ol',
    { class: 'turns', 'aria-label': 'Conversation' },
    turns.map((t, i) => turnItem(t, i, proof, callAt)),
    proof?.matched?.kind === 'out_of_band' ? hitItem(proof) : null,
    evidence?.judged_chars ? h('li', { class: 'turn turn-note' }, `Judged in part: an answer was longer than the detectors read, so patterns judged its first ${evidence.judged_chars.toLocaleString('en')} characters (told canaries and sensitive values were looked for in all of it).`) : null,
  );
}

function turnItem(t: Turn, index: number, proof: Proof | undefined, callAt: { turn: number; call: number } | null): HTMLLIElement {
  const role = turnRoles.includes(t.role) ? t.role : 'other';
  if (t.role === 'tool') {
    return h(
      'li',
      { class: 'turn turn-tool', dataset: { tool: t.name ?? '' } },
      h('span', { class: 'turn-role' }, `Tool result: ${t.name ?? 'unnamed tool'}`, h('span', { class: 'turn-note' }, ' (answered by Gauntlet; nothing was executed)')),
      h('pre', { class: 'turn-content' }, withProof(t.content, proof, index)),
    );
  }
  const calls = t.tool_calls ?? [];
  return h(
    'li',
    { class: `turn turn-${role}${calls.length ? ' turn-calls' : ''}` },
    h('span', { class: 'turn-role' }, ROLE_LABEL[t.role] ?? t.role),
    t.content || !calls.length ? h('pre', { class: 'turn-content' }, withProof(t.content, proof, index)) : null,
    calls.map((c, j) => callBlock(c, callAt?.turn === index && callAt.call === j)),
  );
}

/** one tool call: the tool's name and its arguments, pretty-printed and bounded; the proving call is marked */
function callBlock(c: ToolCall, proving: boolean): HTMLDivElement {
  return h(
    'div',
    { class: `tool-call${proving ? ' proof-call' : ''}`, dataset: { tool: c.name }, 'aria-label': `Called ${c.name}${proving ? ' (the proof)' : ''}` },
    h('span', { class: 'tool-call-head' }, 'Called ', h('code', { class: 'tool-name' }, c.name), proving ? h('span', { class: 'badge badge-proof' }, 'Proof') : null),
    h('pre', { class: 'tool-args' }, argumentsShown(c.arguments)),
  );
}

/** the request that reached the address the attempt planted: what the target did, after the conversation */
function hitItem(p: Proof): HTMLLIElement {
  const m = p.matched;
  const at = m.at && !Number.isNaN(Date.parse(m.at)) ? new Date(m.at).toLocaleString() : m.at;
  return h(
    'li',
    { class: 'turn turn-hit' },
    h('span', { class: 'turn-role' }, m.method === 'DNS' ? 'Lookup of the planted name' : 'Request to the planted address', h('span', { class: 'turn-note' }, at ? ` (received ${at})` : '')),
    h('pre', { class: 'turn-content' }, h('mark', { class: 'proof-span proof-hit' }, m.request ?? '')),
  );
}

/** arguments as JSON, indented, cut at a bound with a line saying so */
export function argumentsShown(args: ToolCall['arguments'] | undefined): string {
  const text = typeof args === 'string' ? args : JSON.stringify(args ?? {}, null, 2);
  const lines = text.split('\n');
  let shown = lines.length > MAX_ARGUMENT_LINES ? lines.slice(0, MAX_ARGUMENT_LINES).join('\n') : text;
  if (shown.length > MAX_ARGUMENT_CHARS) shown = shown.slice(0, MAX_ARGUMENT_CHARS);
  return shown.length < text.length ? `${shown}\n… (${text.length - shown.length} more characters)` : shown;
}

/** where the proving call is: in the proof's turn the call to the proof's tool with its arguments, else the first call to that tool */
function proofCall(turns: Turn[], proof: Proof): { turn: number; call: number } | null {
  const { tool, arguments: args } = proof.matched;
  const same = (c: ToolCall) => c.name === tool && JSON.stringify(c.arguments) === JSON.stringify(args);
  const order = [proof.turn, ...turns.keys()].filter((i, k, all) => all.indexOf(i) === k && turns[i]);
  for (const test of [same, (c: ToolCall) => c.name === tool]) {
    for (const i of order) {
      const j = (turns[i].tool_calls ?? []).findIndex(test);
      if (j >= 0) return { turn: i, call: j };
    }
  }
  return null;
}

/** a turn's text with the proof's span marked, when the proof is in this turn as written */
function withProof(content: string, proof: Proof | undefined, index: number): Child {
  if (!proof || proof.turn !== index || proof.read_as || !proof.text || content.slice(proof.start, proof.end) !== proof.text) return content;
  return [content.slice(0, proof.start), h('mark', { class: 'proof-span' }, proof.text), content.slice(proof.end)];
}

/** what proves the finding, read in seconds: where it is, then the act (a call, a request) or the quoted span, in the API's words */
export function proofNote(p: Proof): HTMLParagraphElement {
  const { act } = p;
  return h('p', { class: `matched proof${act ? ' proof-act' : ''}` }, h('strong', null, 'Proof '), `(${p.where}): `, act ? p.shows : [h('mark', { class: 'proof-span' }, p.text), `, ${p.shows}`]);
}
