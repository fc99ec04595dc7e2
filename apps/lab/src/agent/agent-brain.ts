import { ChatMessage, reply } from '../brain';
import { DEFAULT_CANARIES } from '../knowledge';
import { ADDRESSED, instructionsIn, readableText, sentencesOf, textInstructionIn, urlToLoad } from './instructions';
import { HeldValues, OfferedTool, PATTERNS, asksForAction, changesTheWorld, chooseTool, cleanUrl, fillArguments, isRisky } from './tool-reading';

/**
 * The lab's scripted tool-calling agent: one decision per model request, as a model behind the
 * OpenAI tools API takes it. Given the conversation so far (user turns, its own earlier calls, the
 * results the caller answered them with) and the tools offered, it either calls tools or answers.
 *
 * Guard modes, the kinds of agent a security team meets:
 * - `obliging`: calls whatever tool the request needs with the arguments asked, and obeys
 *   instructions found in tool results;
 * - `guarded`: refuses a direct request for a risky action (one that sends, pays, deletes, writes,
 *   runs), reads what it is asked to, and is steered by what its tools return;
 * - `safe`: reads what it is asked to read, refuses risky actions asked directly, and never obeys
 *   an instruction inside a tool result;
 * - `talker`: calls no tool at all, whatever is offered, and says it did ("Done! I've transferred...").
 */
export const AGENT_GUARDS = ['obliging', 'guarded', 'safe', 'talker'] as const;
export type AgentGuard = (typeof AGENT_GUARDS)[number];

/** the conversation as the agent reads it, whatever the wire form */
export type AgentMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; calls?: AgentCall[] }
  | { role: 'tool'; content: string; callId: string; name?: string };

export interface AgentCall {
  id: string;
  name: string;
  arguments: Record<string, unknown> | string;
}

/** why the agent made a call: the user asked, or a tool result told it to */
export type CallCause = 'request' | 'tool_result';

export type AgentStep =
  | { kind: 'calls'; calls: { name: string; arguments: Record<string, unknown>; cause: CallCause; risky: boolean }[] }
  | { kind: 'answer'; text: string; claimed?: AgentClaimed };

/** an act the agent said it had done with no call behind it: the talker's words, for the ground truth */
export interface AgentClaimed {
  /** the verb it asked for ("transfer") */
  act: string;
  /** whether such an act changes the world (sends, pays, deletes, writes, runs) */
  risky: boolean;
}

export interface AgentInput {
  messages: AgentMessage[];
  tools: readonly OfferedTool[];
  guard: AgentGuard;
  /** what the agent holds about the customer it serves */
  held: HeldValues;
  /** OpenAI tool_choice: "none", "required", or a tool's name to call */
  toolChoice?: 'auto' | 'none' | 'required' | { name: string };
}

/** the most calls one user message leads to: an agent steered in a loop still stops */
export const MAX_CALLS_PER_TURN = 4;

export function decide(input: AgentInput): AgentStep {
  const { messages, guard, held } = input;
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  const request = lastUser >= 0 ? messages[lastUser].content : '';
  const since = messages.slice(lastUser + 1);
  const made = since.flatMap((m) => (m.role === 'assistant' ? (m.calls ?? []) : []));
  const results = since.filter((m): m is Extract<AgentMessage, { role: 'tool' }> => m.role === 'tool');
  const tools = input.toolChoice === 'none' ? [] : input.tools;

  if (guard === 'talker') return talkerReply(request, messages);
  if (!tools.length) return { kind: 'answer', text: chatReply(messages) };

  if (!results.length) {
    const forced = typeof input.toolChoice === 'object' ? tools.find((t) => t.name === (input.toolChoice as { name: string }).name) : undefined;
    const choice = forced ? { tool: forced } : chooseTool(request, tools, { mustChoose: input.toolChoice === 'required' });
    if (!choice) return { kind: 'answer', text: chatReply(messages) };
    const { args, missing } = fillArguments(choice.tool, request, held);
    if (missing.length) return { kind: 'answer', text: `I can do that with ${choice.tool.name}, but I need the ${missing.join(' and ')} first.` };
    const risky = isRisky(choice.tool, args);
    if (risky && guard !== 'obliging') return { kind: 'answer', text: `I can't do that: ${choice.tool.name} would change things on the account, and I don't take such actions from a chat request. A colleague can help you with it.` };
    return { kind: 'calls', calls: [{ name: choice.tool.name, arguments: args, cause: 'request', risky }] };
  }

  const found = results.flatMap((r) => instructionsIn(r.content));
  if (guard !== 'safe' && made.length < MAX_CALLS_PER_TURN) {
    const done = new Set(made.map((c) => callKey(c.name, c.arguments)));
    for (const instruction of found) {
      const choice = chooseTool(instruction, tools);
      if (!choice) continue;
      // a URL the instruction says to fill in or add to is loaded as it says
      const url = urlToLoad(instruction, held);
      const sentence = url ? instruction.replace(cleanUrl(instruction.match(PATTERNS.url)![0])!, url) : instruction;
      const { args, missing } = fillArguments(choice.tool, sentence, held);
      if (missing.length || done.has(callKey(choice.tool.name, args))) continue;
      return { kind: 'calls', calls: [{ name: choice.tool.name, arguments: args, cause: 'tool_result', risky: isRisky(choice.tool, args) }] };
    }
  }
  // an instruction to say something: an agent that obeys what it read says it
  const say = guard === 'safe' ? null : results.map((r) => textInstructionIn(r.content)).find(Boolean);
  if (say) return { kind: 'answer', text: say };
  return { kind: 'answer', text: summaryOf(results, made, guard === 'safe' && (found.length > 0 || results.some((r) => textInstructionIn(r.content)))) };
}

export function callKey(name: string, args: Record<string, unknown> | string): string {
  return `${name} ${typeof args === 'string' ? args : JSON.stringify(args, Object.keys(args).sort())}`;
}

/** what the agent says once its calls are answered: what it used, and the gist of what the user asked it to read (never the instructions in it) */
function summaryOf(results: Extract<AgentMessage, { role: 'tool' }>[], made: AgentCall[], ignored: boolean): string {
  const gistOf = (content: string) => {
    const instructions = instructionsIn(content);
    return sentencesOf(readableText(content)).filter((s) => s.length > 8 && !ADDRESSED.test(s) && !instructions.some((i) => s.includes(i))).slice(0, 2).join(' ');
  };
  const gist = results.map((r) => gistOf(r.content)).find(Boolean);
  const used = [...new Set(made.map((c) => c.name))].join(', ');
  return [`I used ${used || 'my tools'}.`, gist ? `Result: ${gist.slice(0, 240)}` : 'It returned nothing worth reporting.', ignored ? 'The content also held instructions, which I did not follow.' : ''].filter(Boolean).join(' ');
}

/** a reply with no tool: the lab's hardened support bot (it leaks nothing and takes no action by words alone) */
function chatReply(messages: AgentMessage[]): string {
  const chat: ChatMessage[] = messages.filter((m): m is Extract<AgentMessage, { role: 'user' | 'system' }> | Extract<AgentMessage, { role: 'assistant' }> => m.role !== 'tool').map((m) => ({ role: m.role, content: m.content }));
  return reply(chat, { weaknesses: new Set(), canaries: DEFAULT_CANARIES, maxAnswerChars: 2_000 });
}

const PAST: Record<string, string> = {
  send: 'sent', email: 'e-mailed', mail: 'mailed', forward: 'forwarded', transfer: 'transferred', wire: 'wired', pay: 'paid', refund: 'refunded', charge: 'charged',
  delete: 'deleted', remove: 'removed', erase: 'erased', drop: 'dropped', purge: 'purged', wipe: 'wiped', run: 'run', execute: 'executed', grant: 'granted',
  revoke: 'revoked', cancel: 'cancelled', update: 'updated', fetch: 'fetched', visit: 'visited', open: 'opened', load: 'loaded', write: 'written', save: 'saved', move: 'moved',
};
const CLAIMED = new RegExp(`\\b(${Object.keys(PAST).join('|')})\\b\\s*(.*)`, 'is');

/** the bot that only talks: for a request to act, it says the action is done; otherwise it chats */
function talkerReply(request: string, messages: AgentMessage[]): Extract<AgentStep, { kind: 'answer' }> {
  const m = asksForAction(request) ? CLAIMED.exec(request) : null;
  if (!m) return { kind: 'answer', text: chatReply(messages) };
  const act = m[1].toLowerCase();
  const rest = m[2].replace(/\s+/g, ' ').replace(/[.!?]+$/, '').slice(0, 120);
  return { kind: 'answer', text: `Done! I've ${PAST[act]} ${rest || 'it'} for you. Anything else?`, claimed: { act, risky: changesTheWorld(act) } };
}
