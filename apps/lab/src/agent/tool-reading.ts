/**
 * How the lab's scripted agents read a tool set they have never seen: which offered tool a
 * sentence asks for (a scoring of the sentence against each tool's name, description and
 * parameter names), the arguments the sentence gives it (addresses, amounts, account numbers,
 * URLs, SQL, paths, quoted text, read by what each parameter is called and described as), and
 * whether a call changes the world. Nothing here knows a tool name or a probe's wording.
 */

/** A tool as the request offered it, whatever the wire form (OpenAI function, Anthropic tool). */
export interface OfferedTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments object */
  parameters: Record<string, unknown>;
}

/** Values the agent holds (the customer it serves): used where an instruction refers to them. */
export interface HeldValues {
  name: string;
  email: string;
  phone: string;
  iban: string;
}

// ---- words ------------------------------------------------------------------------------

/** words of a text or an identifier (snake_case, camelCase and kebab-case split), lower case, crudely stemmed */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1)
    .map(stem);
}

function stem(w: string): string {
  if (w.length > 4 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 3 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && /(?:ss|sh|ch|x)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  return w;
}

/**
 * Kinds of action, each with the words that ask for it. A sentence and a tool meet on a kind when
 * both hold one of its words; the verbs are what makes a sentence a request at all.
 */
const ACTIONS: { kind: string; verbs: string[]; nouns: string[]; risky: boolean }[] = [
  { kind: 'mail', verbs: ['send', 'email', 'mail', 'forward', 'reply', 'notify', 'cc', 'bcc', 'sent'], nouns: ['email', 'mail', 'recipient', 'subject', 'message', 'inbox'], risky: true },
  { kind: 'pay', verbs: ['transfer', 'wire', 'pay', 'refund', 'charge', 'remit', 'reimburse', 'move'], nouns: ['payment', 'money', 'fund', 'iban', 'amount', 'bank', 'beneficiary', 'currency', 'eur', 'usd', 'gbp', 'account'], risky: true },
  { kind: 'delete', verbs: ['delete', 'remove', 'erase', 'drop', 'purge', 'wipe', 'destroy', 'truncate', 'deactivate', 'close'], nouns: ['record', 'user', 'account', 'row', 'table'], risky: true },
  { kind: 'fetch', verbs: ['fetch', 'visit', 'open', 'browse', 'load', 'download', 'retrieve', 'summarise', 'summarize', 'access', 'ping', 'request', 'go', 'check', 'navigate', 'crawl', 'scrape'], nouns: ['url', 'page', 'web', 'website', 'link', 'http', 'https', 'site', 'webpage', 'address'], risky: false },
  { kind: 'database', verbs: ['query', 'select', 'run', 'execute', 'look', 'lookup', 'find', 'update', 'insert'], nouns: ['sql', 'database', 'db', 'table', 'record', 'row', 'customer', 'statement'], risky: false },
  { kind: 'file', verbs: ['read', 'write', 'save', 'store', 'overwrite', 'append', 'open', 'cat', 'upload', 'create'], nouns: ['file', 'path', 'document', 'directory', 'folder', 'content', 'disk'], risky: false },
  { kind: 'read', verbs: ['read', 'check', 'show', 'list', 'get', 'search', 'look', 'view', 'see', 'find'], nouns: ['inbox', 'calendar', 'event', 'meeting', 'document', 'note', 'ticket', 'order'], risky: false },
  { kind: 'shell', verbs: ['run', 'execute', 'exec', 'launch'], nouns: ['command', 'shell', 'terminal', 'script', 'bash', 'cmd'], risky: true },
  { kind: 'grant', verbs: ['grant', 'revoke', 'promote', 'elevate', 'assign'], nouns: ['role', 'permission', 'admin', 'access', 'privilege'], risky: true },
];
const VERBS = new Set(ACTIONS.flatMap((a) => a.verbs).map(stem));
const PLAIN_VERBS = new Set(ACTIONS.flatMap((a) => a.verbs));

/** words that say a tool changes something (its name is read first, then its description) */
const CHANGING = /\b(?:send|sends|email|mail|forward|post|transfer|wire|pay|payment|refund|charge|delete|remove|erase|drop|purge|wipe|destroy|truncate|write|overwrite|update|modify|create|insert|execute|exec|run|shell|command|grant|revoke|upload|share|publish|cancel|book|order|purchase|buy|move|rename|deactivate|close)\b/i;
const READING = /\b(?:get|read|fetch|search|list|lookup|look|find|retrieve|view|browse|open|check|summari[sz]e|show|query|describe|load|download)\b/i;

// ---- recognisable values -----------------------------------------------------------------

export const PATTERNS = {
  email: /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/,
  url: /\bhttps?:\/\/[^\s"'<>)\]`]+/i,
  iban: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/,
  account: /\b(?:account|acct|a\/c)(?:\s+(?:number|no\.?|#))?\s*:?\s*([A-Z0-9][A-Z0-9-]{4,})\b/i,
  amount: /(?:[$€£]\s?(\d[\d,]*(?:\.\d+)?)|(\d[\d,]*(?:\.\d+)?)\s?(?:eur|euros?|usd|dollars?|gbp|pounds?|chf|[$€£])\b)/i,
  sql: /\b(?:select|insert|update|delete|drop|truncate|alter|create|grant|revoke)\b\s+[^;\n`]*(?:;|$|(?=`))/i,
  path: /(?:~|\.{1,2})?\/(?:[\w.-]+\/)*[\w.-]+|\b[\w-]+\.(?:txt|csv|json|env|pdf|log|md|ya?ml|conf|cfg|ini|db|sql|key|pem|xlsx?|docx?|html?)\b/,
  /** double quotes first: a value in double quotes may hold an apostrophe */
  quoted: /"([^"\n]{1,400})"|“([^”\n]{1,400})”|(?<![A-Za-z])'([^'\n]{2,400})'(?![A-Za-z])|‘([^’\n]{2,400})’/,
  backticked: /`([^`\n]{1,400})`/,
  id: /\b(?:[A-Z]{2,}-?\d{2,}|#\d+)\b|\b(?:id|user|customer|record|order|ticket|invoice|account)\s*(?:#|no\.?|number|id)?\s*:?\s*(\d+|[A-Z0-9]+-[A-Z0-9-]+)\b/i,
};

/** the first quoted text in a sentence, without its quotes */
export function quotedIn(text: string): string | undefined {
  const m = text.match(PATTERNS.quoted);
  return m ? (m[1] ?? m[2] ?? m[3] ?? m[4]) : undefined;
}

/** whether a word is an action verb in its plain (imperative) form: "send", "e-mail", not "sending" or "opening" */
export function isImperative(word: string): boolean {
  return PLAIN_VERBS.has(word.toLowerCase().replace(/[^a-z]/g, ''));
}

/** what a sentence offers a tool: values of the kinds tools take */
export function valuesIn(text: string): Set<string> {
  const kinds = new Set<string>();
  for (const k of ['email', 'url', 'iban', 'amount', 'sql', 'path'] as const) if (PATTERNS[k].test(text)) kinds.add(k);
  return kinds;
}

// ---- parameters --------------------------------------------------------------------------

interface Param {
  name: string;
  schema: Record<string, unknown>;
  required: boolean;
}

export function paramsOf(tool: OfferedTool): Param[] {
  const props = (tool.parameters?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set(Array.isArray(tool.parameters?.required) ? (tool.parameters.required as string[]) : []);
  return Object.entries(props)
    .filter(([, s]) => s && typeof s === 'object')
    .map(([name, schema]) => ({ name, schema, required: required.has(name) }));
}

/** what a parameter holds, read from its name, then its description and format */
function kindOf(p: Param): string {
  const name = p.name.toLowerCase();
  const about = `${String(p.schema.description ?? '')} ${String(p.schema.format ?? '')}`.toLowerCase();
  const type = typeOfSchema(p.schema);
  const tests: [string, RegExp][] = [
    ['email', /e-?mail|recipient|^to$|^cc$|^bcc$|^from$|sender/],
    ['url', /url|uri|link|href|endpoint|website|webpage|^page$|^site$/],
    ['iban', /iban|account|beneficiary|destination|payee|creditor|^to_|bank/],
    ['amount', /amount|sum|^value$|price|total|quantity/],
    ['currency', /currency/],
    ['sql', /sql|statement/],
    ['table', /^table$|table_?name|^collection$/],
    ['path', /path|file|filename|directory|folder|^dir$/],
    ['command', /command|^cmd$|script/],
    ['method', /^method$|http_method|verb/],
    ['id', /(?:^|_)id$|^id|identifier|^user$|^customer$|^record$|^order$|^ticket$/],
    ['subject', /subject|title|^name$|heading/],
    ['body', /body|content|message|text|note|memo|description|reference|comment|details|data|payload|summary/],
    ['query', /query|search|question|keyword|term|^q$|filter|prompt/],
  ];
  for (const [kind, re] of tests) if (re.test(name)) return kind;
  if (type === 'string') for (const [kind, re] of tests) if (re.test(about) && kind !== 'id' && kind !== 'subject') return kind;
  if (/\bsql\b/.test(about)) return 'sql';
  return type === 'string' ? 'text' : type;
}

function typeOfSchema(s: Record<string, unknown>): string {
  const t = Array.isArray(s.type) ? (s.type as string[]).find((x) => x !== 'null') : s.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(s.enum)) return typeof s.enum[0] === 'number' ? 'number' : 'string';
  return 'string';
}

// ---- choosing a tool ---------------------------------------------------------------------

export interface ToolChoice {
  tool: OfferedTool;
  score: number;
}

/**
 * The offered tool a sentence asks for, or null when it asks for none: the sentence must hold an
 * action verb (or a value only a tool could take, like a URL or SQL) that meets the tool on a
 * kind of action; then the tool whose name, description and parameters share most with it wins.
 */
export function chooseTool(sentence: string, tools: readonly OfferedTool[], options: { mustChoose?: boolean } = {}): ToolChoice | null {
  const said = wordsOf(sentence);
  const saidSet = new Set(said);
  const values = valuesIn(sentence);
  const verbs = said.filter((w) => VERBS.has(w));
  let best: ToolChoice | null = null;
  for (const tool of tools) {
    const nameWords = new Set(wordsOf(tool.name));
    const descWords = new Set(wordsOf(tool.description));
    const params = paramsOf(tool);
    const paramWords = new Set(params.flatMap((p) => wordsOf(`${p.name} ${String(p.schema.description ?? '')}`)));
    let score = 0;
    let met = false;
    for (const w of saidSet) {
      if (nameWords.has(w)) score += 3;
      else if (descWords.has(w)) score += 1;
      else if (paramWords.has(w)) score += 0.5;
    }
    for (const action of ACTIONS) {
      const verbHere = verbs.some((v) => action.verbs.map(stem).includes(v));
      if (!verbHere) continue;
      const toolWords = [...nameWords, ...descWords];
      const toolHas = toolWords.some((w) => action.verbs.map(stem).includes(w) || action.nouns.map(stem).includes(w));
      if (toolHas) {
        met = true;
        score += [...nameWords].some((w) => action.verbs.map(stem).includes(w)) ? 3 : 1;
      }
    }
    const kinds = new Set(params.map(kindOf));
    for (const v of values) {
      if (kinds.has(v) || (v === 'amount' && kinds.has('number'))) {
        score += v === 'url' || v === 'sql' ? 4 : 2;
        if (v === 'url' || v === 'sql' || v === 'iban' || v === 'email' || v === 'path') met = met || verbs.length > 0 || v === 'url' || v === 'sql';
      }
    }
    // a question about what a reading tool holds ("what's in my inbox?") asks for it without a verb
    if (!met && !isRisky(tool, {}) && [...saidSet].some((w) => w.length > 3 && nameWords.has(w))) met = true;
    if (!met && !options.mustChoose) continue;
    if (!best || score > best.score) best = { tool, score };
  }
  return best && (best.score >= 3 || options.mustChoose) ? best : null;
}

/** whether a sentence asks for anything to be done at all (an action verb) */
export function asksForAction(sentence: string): boolean {
  return wordsOf(sentence).some((w) => VERBS.has(w));
}

/** whether an act named by this verb changes the world (sends, pays, deletes, writes, runs): what a claim of it is weighed by */
export const changesTheWorld = (verb: string): boolean => CHANGING.test(verb) && !READING.test(verb);

/** whether calling the tool with these arguments changes the world (sends, pays, deletes, writes, runs) */
export function isRisky(tool: OfferedTool, args: Record<string, unknown>): boolean {
  const sql = Object.values(args).find((v): v is string => typeof v === 'string' && PATTERNS.sql.test(v));
  if (sql) return !/^\s*select\b/i.test(sql.match(PATTERNS.sql)![0]);
  const method = Object.entries(args).find(([k]) => /method/i.test(k))?.[1];
  if (typeof method === 'string' && !/^(?:get|head)$/i.test(method)) return true;
  // the name's first verb says what the tool does ("lookup_order" reads, "order_refund" does not)
  for (const word of tool.name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z]+/)) {
    if (READING.test(word)) return false;
    if (CHANGING.test(word)) return true;
  }
  const firstSentence = tool.description.split(/(?<=[.!?])\s/)[0] ?? '';
  return CHANGING.test(firstSentence) && !READING.test(firstSentence.split(/\s+/).slice(0, 2).join(' '));
}

// ---- filling the arguments -----------------------------------------------------------------

/**
 * The arguments a sentence gives a tool: each parameter filled from the value of its kind the
 * sentence holds; a required one with no such value gets the sentence's quoted text, or the
 * sentence itself. Held values fill what the sentence refers to ("the customer's e-mail").
 */
export function fillArguments(tool: OfferedTool, sentence: string, held: HeldValues | null): { args: Record<string, unknown>; missing: string[] } {
  const args: Record<string, unknown> = {};
  const missing: string[] = [];
  const refs = held ? referencedValues(sentence, held) : [];
  for (const p of paramsOf(tool)) {
    const v = valueFor(p, sentence, refs, held);
    if (v !== undefined) args[p.name] = v;
    else if (p.required) {
      // an address, an account, a URL, SQL or a path is never made up: without one the call cannot be made
      if (VALUE_KINDS.has(kindOf(p))) missing.push(p.name);
      else args[p.name] = fallback(p, sentence);
    }
  }
  return { args, missing };
}

const VALUE_KINDS = new Set(['email', 'url', 'iban', 'amount', 'sql', 'path', 'command']);

function valueFor(p: Param, text: string, refs: string[], held: HeldValues | null): unknown {
  const kind = kindOf(p);
  const enumValues = Array.isArray(p.schema.enum) ? (p.schema.enum as unknown[]) : null;
  if (enumValues) {
    const said = enumValues.find((e) => typeof e === 'string' && new RegExp(`\\b${e.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(text));
    if (said !== undefined) return said;
    return p.required ? (p.schema.default ?? enumValues[0]) : undefined;
  }
  const match = (re: RegExp) => text.match(re)?.[0];
  // "order id: 1 OR 1=1", "subject = Hello there": a value labelled with the parameter's name is taken as written, to the clause's end
  if (['id', 'subject', 'body', 'text', 'query', 'command'].includes(kind)) {
    const labelled = labelledValue(p.name, text);
    if (labelled) return refs.length && (kind === 'body' || kind === 'text') ? `${labelled}\n${refs.join('\n')}` : labelled;
  }
  switch (kind) {
    case 'email':
      return match(PATTERNS.email);
    case 'url':
      return cleanUrl(match(PATTERNS.url));
    case 'iban': {
      const iban = match(PATTERNS.iban);
      if (iban) return iban;
      const account = text.match(PATTERNS.account)?.[1];
      if (account) return account;
      // "to the account of X" names no number: a recipient that is an address is still one
      return match(PATTERNS.email);
    }
    case 'amount':
    case 'number':
    case 'integer': {
      const m = text.match(PATTERNS.amount);
      const raw = m ? (m[1] ?? m[2]) : kind === 'amount' ? undefined : text.match(/\b\d+(?:\.\d+)?\b/)?.[0];
      if (raw === undefined) return undefined;
      const n = Number(raw.replace(/,/g, ''));
      const type = typeOfSchema(p.schema);
      return type === 'string' ? raw : type === 'integer' ? Math.round(n) : n;
    }
    case 'currency': {
      const c = text.match(/\b(EUR|USD|GBP|CHF|JPY|PLN|SEK)\b/i)?.[1] ?? ({ '€': 'EUR', $: 'USD', '£': 'GBP' } as Record<string, string>)[text.match(/[€$£]/)?.[0] ?? ''] ?? (/\beuros?\b/i.test(text) ? 'EUR' : /\bdollars?\b/i.test(text) ? 'USD' : /\bpounds?\b/i.test(text) ? 'GBP' : undefined);
      return c?.toUpperCase();
    }
    case 'sql':
      return match(PATTERNS.sql)?.trim() ?? text.match(PATTERNS.backticked)?.[1];
    case 'path':
      return match(PATTERNS.path);
    case 'command':
      return text.match(PATTERNS.backticked)?.[1] ?? quotedIn(text);
    case 'method':
      return match(/\b(?:GET|POST|PUT|PATCH|DELETE|HEAD)\b/) ?? undefined;
    case 'id':
      // a quoted value is passed as given, whatever it holds (an injection through an argument travels whole)
      return quotedIn(text) ?? text.match(PATTERNS.id)?.[1] ?? match(PATTERNS.id) ?? undefined;
    case 'subject':
      return quotedIn(text) ?? (p.required ? summaryOf(text) : undefined);
    case 'table':
      return text.match(/\b(?:from|into|in|the)\s+[`"']?(\w+)[`"']?\s+(?:table|collection)\b/i)?.[1] ?? text.match(/\b(?:table|collection|from|into)\s+[`"']?(\w+)/i)?.[1];
    case 'text':
    case 'body': {
      // a parameter the sentence does not speak to is left out unless the tool needs it
      if (kind === 'text' && !p.required) return undefined;
      const quoted = quotedIn(text);
      const base = quoted ?? text.trim().slice(0, 500);
      // what the sentence said to send: the values it refers to travel with it
      return refs.length ? `${base}\n${refs.join('\n')}` : base;
    }
    case 'query':
      return quotedIn(text) ?? match(PATTERNS.sql)?.trim() ?? text.trim().slice(0, 200);
    case 'boolean':
      // a confirmation or a force switch: an agent that does what it is told sets it
      return /confirm|force|approv|skip|bypass|all|recursive/i.test(p.name) ? true : p.required ? false : undefined;
    case 'array': {
      const items = (p.schema.items ?? {}) as Record<string, unknown>;
      const inner = valueFor({ name: p.name, schema: items, required: true }, text, refs, held);
      return inner === undefined ? undefined : [inner];
    }
    case 'object':
      return p.required ? {} : undefined;
    default:
      return undefined;
  }
}

function labelledValue(name: string, text: string): string | undefined {
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  if (!words.length) return undefined;
  const label = [words.join('[\\s_-]*'), words[words.length - 1]].map((w) => `\\b${w}`).join('|');
  const m = new RegExp(`(?:${label})\\b\\s*(?:is|=|:)\\s*(.+?)(?=\\.\\s|\\n|\\.?$)`, 'i').exec(text);
  const value = m?.[1].trim();
  return value ? (quotedIn(value) && /^["“'‘].*["”'’]$/.test(value) ? quotedIn(value) : value) : undefined;
}

function fallback(p: Param, sentence: string): unknown {
  const type = typeOfSchema(p.schema);
  if (type === 'number' || type === 'integer') return 0;
  if (type === 'boolean') return false;
  if (type === 'array') return [];
  if (type === 'object') return {};
  return quotedIn(sentence) ?? sentence.trim().slice(0, 200);
}

/** a URL as written in prose: trailing punctuation and an unmatched closing brace are not part of it */
export function cleanUrl(url: string | undefined): string | undefined {
  if (!url) return url;
  let u = url.replace(/[.,;:!?]+$/, '');
  while (u.endsWith('}') && (u.match(/\{/g)?.length ?? 0) < (u.match(/\}/g)?.length ?? 0)) u = u.slice(0, -1).replace(/[.,;:!?]+$/, '');
  return u;
}

const summaryOf = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 60);

/**
 * Held values a sentence refers to: "the customer's name", "their e-mail address", "the IBAN on
 * file", "all the customer data".
 */
export function referencedValues(text: string, held: HeldValues): string[] {
  const t = text.toLowerCase();
  if (/\b(?:customer|user|client|patient|account holder)(?:'s)?\s+(?:data|details|record|information|info|file|profile|pii)\b|\ball (?:the )?(?:customer |personal )?(?:data|details)\b/.test(t)) return [held.name, held.email, held.phone, held.iban];
  const out: string[] = [];
  if (/\b(?:customer|user|client|patient|their|his|her|the)(?:'s)?\s+(?:full\s+)?name\b/.test(t)) out.push(held.name);
  if (/\be-?mail(?: address)?\b/.test(t) && /\b(?:customer|user|client|their|his|her)\b/.test(t)) out.push(held.email);
  if (/\bphone(?: number)?\b/.test(t) && /\b(?:customer|user|client|their|his|her)\b/.test(t)) out.push(held.phone);
  if (/\b(?:iban|bank (?:account|details))\b/.test(t) && /\b(?:customer|user|client|their|his|her|on file)\b/.test(t)) out.push(held.iban);
  return out;
}
