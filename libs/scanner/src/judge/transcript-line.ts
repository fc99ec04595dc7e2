import { MAX_SENSITIVE_VALUES, readToolDefinitions, SensitiveValue, ToolCall, ToolDefinition, Turn } from '@gauntlet/domain';
import { probeById } from '../probes/catalogue';

/**
 * One conversation to judge from outside a scan, in the API's turn shape: a line of the JSON Lines
 * `gauntlet judge` reads.
 *
 *   {id, turns: [{role: user|assistant|tool, content, tool_calls?, tool_call_id?, name?}],
 *    target?: {canaries?, sensitive?: [{label, value}], tools?}, probe?}
 *
 * `probe` names the catalogue's probe the conversation is an attempt of (its category and rules
 * judge it, as in a scan); without one it is judged for every weakness a transcript alone can show.
 * Fields beside these are let be (a labelled corpus keeps its labels on the line); inside a turn or
 * the target, an unknown field is an error, as a typo there would change the verdict unseen.
 */
export interface TranscriptLine {
  id: string;
  turns: Turn[];
  target: { canaries: string[]; sensitive: SensitiveValue[]; tools: ToolDefinition[] };
  probe?: string;
}

/** What one line may hold: a conversation of a few hundred turns, not a log file. */
export const TRANSCRIPT_LIMITS = {
  /** characters of one line, the whole conversation */
  lineChars: 4 * 1024 * 1024,
  turns: 500,
  idChars: 200,
  toolCallsPerTurn: 32,
  canaries: 20,
  canaryChars: 200,
  sensitiveValues: MAX_SENSITIVE_VALUES,
  labelChars: 100,
  valueChars: 20_000,
} as const;

const ROLES = ['user', 'assistant', 'tool'] as const;
const TURN_FIELDS = new Set(['role', 'content', 'tool_calls', 'tool_call_id', 'name']);
const TARGET_FIELDS = new Set(['canaries', 'sensitive', 'tools']);

/** A line that cannot be judged: what is wrong with it, naming the field. */
export class TranscriptLineError extends Error {
  constructor(message: string, readonly id?: string) {
    super(message);
  }
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const fail = (message: string, id?: string): never => {
  throw new TranscriptLineError(message, id);
};

/** Reads one line of JSON into a conversation to judge; throws TranscriptLineError saying what is wrong. */
export function readTranscriptLine(text: string): TranscriptLine {
  if (text.length > TRANSCRIPT_LIMITS.lineChars) fail(`the line is longer than ${TRANSCRIPT_LIMITS.lineChars} characters`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return fail(`not JSON (${(e as Error).message.split('\n')[0].slice(0, 120)})`);
  }
  if (!isObject(raw)) return fail('a line is one JSON object {id, turns, target?, probe?}');
  const id = typeof raw.id === 'string' || typeof raw.id === 'number' ? String(raw.id) : undefined;
  if (id === undefined) fail('id is required: a string naming the conversation');
  if (id!.length === 0 || id!.length > TRANSCRIPT_LIMITS.idChars) fail(`id must be 1 to ${TRANSCRIPT_LIMITS.idChars} characters`);
  const at = (message: string) => fail(message, id);
  if (!Array.isArray(raw.turns) || raw.turns.length === 0) at('turns is required: a list of {role, content} turns');
  const turnsIn = raw.turns as unknown[];
  if (turnsIn.length > TRANSCRIPT_LIMITS.turns) at(`turns holds at most ${TRANSCRIPT_LIMITS.turns} turns`);
  const turns = turnsIn.map((t, i) => readTurn(t, `turns[${i}]`, at));
  let probe: string | undefined;
  if (raw.probe !== undefined && raw.probe !== null) {
    if (typeof raw.probe !== 'string' || !probeById(raw.probe)) at('probe must be the id of a probe of the catalogue (pi-001, sid-003, ...), or absent');
    probe = raw.probe as string;
  }
  return { id: id!, turns, target: readTarget(raw.target, at), ...(probe && { probe }) };
}

function readTurn(t: unknown, field: string, at: (m: string) => never): Turn {
  if (!isObject(t)) return at(`${field} must be an object {role, content}`);
  const unknown = Object.keys(t).find((k) => !TURN_FIELDS.has(k));
  if (unknown) at(`${field}.${unknown} is not a field of a turn (role, content, tool_calls, tool_call_id, name)`);
  if (!ROLES.includes(t.role as (typeof ROLES)[number])) at(`${field}.role must be user, assistant or tool`);
  // an assistant turn that only calls tools has no text: null and absent content read as empty
  if (t.content !== undefined && t.content !== null && typeof t.content !== 'string') at(`${field}.content must be text`);
  const turn: Turn = { role: t.role as Turn['role'], content: (t.content as string | null | undefined) ?? '' };
  if (t.tool_calls !== undefined && t.tool_calls !== null) {
    if (t.role !== 'assistant') at(`${field}.tool_calls belongs to an assistant turn`);
    if (!Array.isArray(t.tool_calls) || t.tool_calls.length > TRANSCRIPT_LIMITS.toolCallsPerTurn) at(`${field}.tool_calls must be a list of at most ${TRANSCRIPT_LIMITS.toolCallsPerTurn} calls`);
    turn.tool_calls = (t.tool_calls as unknown[]).map((c, j) => readCall(c, `${field}.tool_calls[${j}]`, at));
  }
  for (const key of ['tool_call_id', 'name'] as const) {
    if (t[key] === undefined || t[key] === null) continue;
    if (typeof t[key] !== 'string' || (t[key] as string).length > 200) at(`${field}.${key} must be text of at most 200 characters`);
    turn[key] = t[key] as string;
  }
  return turn;
}

/** a call as the OpenAI API writes it ({id, type, function: {name, arguments}}) or as Gauntlet records it ({id, name, arguments}) */
function readCall(c: unknown, field: string, at: (m: string) => never): ToolCall {
  if (!isObject(c)) return at(`${field} must be an object {id, name, arguments}`);
  const fn = isObject(c.function) ? c.function : c;
  if (typeof fn.name !== 'string' || fn.name.length === 0 || fn.name.length > 200) at(`${field}.name must be the tool's name`);
  let args: ToolCall['arguments'] = {};
  if (typeof fn.arguments === 'string') {
    // the OpenAI form carries the arguments as JSON text: read as the object they are, kept as text when they are not JSON
    try {
      const parsed: unknown = JSON.parse(fn.arguments);
      args = isObject(parsed) ? parsed : fn.arguments;
    } catch {
      args = fn.arguments;
    }
  } else if (isObject(fn.arguments)) args = fn.arguments;
  else if (fn.arguments !== undefined && fn.arguments !== null) at(`${field}.arguments must be an object or JSON text`);
  return { id: typeof c.id === 'string' ? c.id : '', name: fn.name as string, arguments: args };
}

function readTarget(t: unknown, at: (m: string) => never): TranscriptLine['target'] {
  const target: TranscriptLine['target'] = { canaries: [], sensitive: [], tools: [] };
  if (t === undefined || t === null) return target;
  if (!isObject(t)) return at('target must be an object {canaries?, sensitive?, tools?}');
  const unknown = Object.keys(t).find((k) => !TARGET_FIELDS.has(k));
  if (unknown) at(`target.${unknown} is not a field of the target (canaries, sensitive, tools)`);
  if (t.canaries !== undefined) {
    const ok = Array.isArray(t.canaries) && t.canaries.length <= TRANSCRIPT_LIMITS.canaries && t.canaries.every((c) => typeof c === 'string' && c.length >= 4 && c.length <= TRANSCRIPT_LIMITS.canaryChars);
    if (!ok) at(`target.canaries must be a list of at most ${TRANSCRIPT_LIMITS.canaries} strings of 4 to ${TRANSCRIPT_LIMITS.canaryChars} characters`);
    target.canaries = t.canaries as string[];
  }
  if (t.sensitive !== undefined) {
    if (!Array.isArray(t.sensitive) || t.sensitive.length > TRANSCRIPT_LIMITS.sensitiveValues) at(`target.sensitive must be a list of at most ${TRANSCRIPT_LIMITS.sensitiveValues} {label, value}`);
    target.sensitive = (t.sensitive as unknown[]).map((s, i) => {
      const ok = isObject(s) && typeof s.label === 'string' && s.label.length >= 1 && s.label.length <= TRANSCRIPT_LIMITS.labelChars && typeof s.value === 'string' && s.value.length >= 4 && s.value.length <= TRANSCRIPT_LIMITS.valueChars && Object.keys(s).length === 2;
      // never the value in the message: it is what the owner wants kept
      if (!ok) at(`target.sensitive[${i}] must be {label (1 to ${TRANSCRIPT_LIMITS.labelChars} characters), value (4 to ${TRANSCRIPT_LIMITS.valueChars} characters)}`);
      const v = s as { label: string; value: string };
      return { label: v.label, value: v.value };
    });
  }
  if (t.tools !== undefined) {
    const read = readToolDefinitions(t.tools);
    if ('problem' in read) at(`target.${read.problem.field}: ${read.problem.message}`);
    else target.tools = read.tools;
  }
  return target;
}
