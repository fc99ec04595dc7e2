/**
 * Instructions aimed at the model rather than the task: the phrasings direct and indirect prompt
 * injection use, in text a model reads (a user's message, a fetched page, a tool's result). The
 * Live Agent Monitor flags them in what reaches an agent; the judge reads a tool result that holds
 * one, followed by the call it asked for, as an indirect injection that took.
 *
 * Every pattern is bounded: a run of at most a few dozen characters between its words, so its cost
 * stays linear in the text whatever a page holds.
 */
export interface Instruction {
  /** which phrasing it is (`override`, `addressed-to-ai`, ...) */
  kind: string;
  start: number;
  end: number;
  text: string;
}

/** the model, named as a reader: "AI assistants", "the agent", "LLM", "language model" */
const READER = String.raw`(?:ai\s+)?(?:assistants?|agents?|ai|llms?|bots?|chatbots?|language\s+models?|models?|copilots?)`;
/** what an instruction tells a reader to do, in its first word or two */
const ACT = String.raw`(?:please\s+)?(?:now\s+|immediately\s+|also\s+)?(?:before|when|after|once|immediately|you\s+(?:must|should|will|need\s+to|are\s+to)|ignore|disregard|forget|override|send|e-?mail|forward|transfer|pay|wire|delete|remove|erase|drop|fetch|visit|open|call|run|execute|post|upload|write|save|create|grant|reset|reply|respond|answer|include|append|add|tell|say|output|print|reveal|do\s+not|don'?t|never|always)`;

const PATTERNS: [string, RegExp][] = [
  ['override', /\b(?:ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}\b(?:previous|prior|above|earlier|all|any|your|the|system)\b[^.\n]{0,25}\b(?:instructions?|rules?|prompts?|guidelines?|directives?|polic(?:y|ies))\b/i],
  ['persona-switch', /\b(?:you are now|from now on,? you(?: are|'re| will)|act as|pretend (?:to be|you are)|roleplay as)\b[^.\n]{0,60}\b(?:unrestricted|unfiltered|jailbroken|dan\b|developer mode|no (?:rules|limits|restrictions|filters))/i],
  ['developer-mode', /\b(?:developer|debug|god|admin|sudo|maintenance) mode\b[^.\n]{0,30}\b(?:enabled|activated|on)\b|\benable (?:developer|debug|god|admin) mode\b/i],
  ['prompt-extraction', /\b(?:reveal|print|show|repeat|output|leak|tell me|what (?:is|are))\b[^.\n]{0,30}\b(?:your |the )?(?:system prompt|initial (?:prompt|instructions)|hidden (?:instructions|prompt)|instructions above|confidential instructions)\b/i],
  // a line's own indentation only: `\s*` after each newline read a run of blank lines again from each of them
  ['fake-system-turn', /(?:^|\n)[^\S\n]*(?:#{1,3}[^\S\n]*)?(?:system|assistant)\s*:|<\|(?:im_start|system|endoftext)\|>|\[\/?(?:INST|SYS)\]/i],
  ['encoded-payload', /\b(?:decode|base64|rot13)\b[^.\n]{0,40}\b(?:and|then)\b[^.\n]{0,20}\b(?:follow|execute|run|obey|do)\b/i],
  // a note written for whatever model reads the text: "Instructions for AI assistants reading this page:", "[Note to the assistant: ..."
  ['addressed-to-ai', new RegExp(String.raw`\b(?:instructions?|notes?|messages?|attention|reminder|directive|important)\s*(?:for|to)\s+(?:the\s+|any\s+|all\s+|every\s+)?${READER}\b`, 'i')],
  // the reader addressed, then told what to do: "AI assistant processing this inbox: pay ...", "Assistant: when you read this, ..."
  ['addressed-to-ai', new RegExp(String.raw`\b${READER}(?:\s+(?:reading|processing|summari[sz]ing|handling|parsing|seeing|viewing)\s+(?:this|these|the)\s+[a-z-]{2,20})?\s*[:,]\s*${ACT}\b`, 'i')],
  ['addressed-to-ai', new RegExp(String.raw`\bif\s+you\s+are\s+(?:an?\s+)?${READER}\b`, 'i')],
];
const INVISIBLE = /[\u200B-\u200F\u2060-\u2064\uFEFF\u{E0000}-\u{E007F}]/u;
/** what is judged of a text for instructions: the start of a page is where its injections are read */
const READ_CHARS = 256 * 1024;

/**
 * The first instruction aimed at the model in `text`, or null. `fromTool`: the text is something the
 * agent read (a page, an e-mail, a tool's result), where a note addressed to the AI is an injection;
 * a user speaking to the assistant ("Assistant, reply in French") is only asking.
 */
export function instructionIn(text: string, { fromTool = false }: { fromTool?: boolean } = {}): Instruction | null {
  const head = text.length > READ_CHARS ? text.slice(0, READ_CHARS) : text;
  let first: Instruction | null = null;
  for (const [kind, re] of PATTERNS) {
    if (kind === 'addressed-to-ai' && !fromTool) continue;
    const m = re.exec(head);
    if (m && (!first || m.index < first.start)) first = { kind, start: m.index, end: m.index + m[0].length, text: m[0] };
  }
  if (first) return first;
  const hidden = INVISIBLE.exec(head);
  return hidden ? { kind: 'invisible-characters', start: hidden.index, end: hidden.index + hidden[0].length, text: 'invisible Unicode characters' } : null;
}

/**
 * Values a text names that a tool call can carry: e-mail addresses, URLs, IBANs, record ids, file
 * paths and numbers of four digits or more (a year excepted), lower-cased. A call holding one of them did what the text that named it
 * asked (what a user or a tool result named is told apart by where it was named).
 *
 * An address is read from where its run of address characters starts: tried from each of them,
 * each reading up to 64 ahead for an `@` (`[\w.+-]{1,64}@`), 256 KiB of letters cost 200 ms. From
 * inside a run an address is found only where the value before it ended (ADDRESS_AT), and a run
 * found to hold none is not read again. An address whose local part passes 64 characters is
 * named whole, not by its last 64.
 */
const ADDRESS = String.raw`[\w.+-]+@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}`;
const VALUE = new RegExp(
  String.raw`(?<![\w.+-])${ADDRESS}|https?:\/\/[^\s"'<>)\]]{3,300}|\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?\b|\b[A-Z]{2,10}-[A-Z0-9]{3,20}\b|(?:^|[\s"'(])\/(?:[\w.-]{1,64}\/){1,12}[\w.-]{1,64}|\b(?!(?:19|20)\d\d\b)\d{4,}\b`,
  'g',
);
const ADDRESS_AT = new RegExp(ADDRESS, 'y');
const ADDRESS_RUN = /[\w.+-]*/y;
const MAX_VALUES = 200;

export function namedValues(text: string): string[] {
  const out = new Set<string>();
  const read = text.slice(0, READ_CHARS);
  // where a run of address characters known to hold no address ends
  let noAddressBefore = -1;
  for (let at = 0; ; ) {
    let m: RegExpExecArray | null = null;
    if (at > 0 && at > noAddressBefore && /[\w.+-]/.test(read[at - 1] ?? '')) {
      ADDRESS_RUN.lastIndex = at;
      ADDRESS_RUN.exec(read);
      const runEnd = ADDRESS_RUN.lastIndex;
      ADDRESS_AT.lastIndex = at;
      m = read[runEnd] === '@' ? ADDRESS_AT.exec(read) : null;
      if (!m) noAddressBefore = runEnd;
    }
    if (!m) {
      VALUE.lastIndex = at;
      m = VALUE.exec(read);
    }
    if (!m) break;
    at = m.index + m[0].length;
    let value = m[0].trim().replace(/^["'(]/, '').replace(/[.,;:]+$/, '').toLowerCase();
    // an IBAN is one value however it is grouped
    if (/^[a-z]{2}\d{2}[a-z0-9 ]+$/.test(value)) value = value.replace(/ /g, '');
    out.add(value);
    // a URL also names its host: the call that fills in the query an instruction left open goes there
    const host = /^https?:\/\/([^/?#:\s]+)/.exec(value)?.[1];
    if (host) out.add(`host:${host}`);
    if (out.size >= MAX_VALUES) break;
  }
  return [...out];
}

/**
 * The kinds of action that change the world, by the words that ask for them and the words a tool
 * that does them is named with (reading and fetching are left out: a value shows where they went).
 */
const ACTS: Record<string, { asked: RegExp; tool: RegExp }> = {
  send: { asked: /\b(?:send|e-?mail|mail|forward|message|notify|share|cc|bcc)\b/i, tool: /^(?:send|email|mail|forward|message|notify|share|sms|post)$/ },
  pay: { asked: /\b(?:pay|payment|transfer|wire|refund|remit|send\s+\d[\d.,]*\s*(?:eur|usd|gbp|\$|€|£))/i, tool: /^(?:pay|payment|payments|transfer|wire|refund|funds|money|remit)$/ },
  delete: { asked: /\b(?:delete|remove|erase|drop|purge|wipe|destroy|deactivate)\b/i, tool: /^(?:delete|remove|erase|drop|purge|wipe|destroy|deactivate)$/ },
  write: { asked: /\b(?:write|save|create|update|modify|grant|append|upload)\b/i, tool: /^(?:write|save|create|update|change|modify|set|grant|upload|put)$/ },
  run: { asked: /\b(?:run|execute|exec|eval|shell|sql)\b/i, tool: /^(?:run|execute|exec|eval|shell|sql|command|bash|cmd|script)$/ },
};

/** the kinds of action a text asks for */
export const actsAskedIn = (text: string): string[] => Object.entries(ACTS).filter(([, a]) => a.asked.test(text.slice(0, READ_CHARS))).map(([act]) => act);

/** the kind of action a tool does, read from its name (`send_email`, `transferFunds`, `db.run`), or null */
export function actOfTool(name: string): string | null {
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z]+/).filter(Boolean);
  return Object.entries(ACTS).find(([, a]) => words.some((w) => a.tool.test(w)))?.[0] ?? null;
}
