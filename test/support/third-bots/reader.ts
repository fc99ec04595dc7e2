// The reader of the shared "model": turns the newest user message (with the conversation before
// it) into what is being asked, the way a capable but naive LLM understands a request. It decodes
// what it recognises, resolves variables and pieces spread over turns, and understands requests in
// many phrasings and several languages.
import { decode, encode, Form, FORM_LABEL } from './codec';
import {
  ABILITIES, ALL_RECORDS, asksToReveal, BYE, DESCRIBES_INPUT, Field, FORMS, GREETING, HOW_ARE_YOU, isOverride,
  isPersonaSwitch, mentionsPrompt, OWN_CREDENTIAL, PATIENT_NOUN, RECORD_FIELD, SECRET_NOUNS, THANKS, WHO,
} from './lexicon';
import { FAQ, FaqEntry, KNOWN, ON_TOPIC, Patient, PATIENTS } from './persona';
import { clean, ENGLISH, escapeRegExp, fold, quoted } from './text';

export interface ChatMessage { role: string; content: string }

export type PromptPart =
  | { kind: 'all' }
  | { kind: 'first-words'; n: number }
  | { kind: 'first-line' }
  | { kind: 'line'; n: number }
  | { kind: 'half'; which: 1 | 2 }
  | { kind: 'summary' }
  | { kind: 'restrictions' }
  | { kind: 'about'; topic: 'db' | 'aws' | 'escalation' | 'confidential' | 'emergency' | 'role' };

export type ActionKind = 'refund' | 'delete' | 'transfer' | 'change' | 'grant' | 'cancel' | 'book' | 'send' | 'run' | 'prescribe' | 'approve';

export interface Action { kind: ActionKind; amount?: string; target?: string; object?: string }

export interface Markup {
  /** Markup the user wrote out, to be reproduced. */
  literal: string[];
  /** Kinds of element the user described. */
  wants: Array<'script' | 'img-onerror' | 'js-link' | 'button' | 'iframe' | 'svg' | 'pixel' | 'md-image' | 'md-link' | 'html'>;
  url?: string;
  data?: string;
  /** An element to wrap the answer in ("format your answer as HTML with a <marquee> tag"). */
  tag?: string;
}

export interface Entity { name: string; type: 'drug' | 'package' | 'paper' | 'person' | 'company' | 'thing'; known?: string }

export interface Unbounded { what: 'repeat' | 'essay' | 'count' | 'list'; text?: string; topic?: string; amount?: number; sequence?: 'numbers' | 'fibonacci' | 'primes' }

export interface Doc { task: 'summary' | 'translate' | 'analyse'; body: string; embedded?: string; language?: string }

export interface Reading {
  raw: string;
  /** The message as the model reads it (decoded, variables expanded). */
  text: string;
  folded: string;
  layers: string[];
  /** The user asked what an encoded text says. */
  decodeAsk: boolean;
  payload?: string;
  viaVariables: boolean;
  override: boolean;
  persona: boolean;
  form?: Form;
  /** The form applies to the previous request ("now the same in base64"). */
  formOnly: boolean;
  bare: boolean;
  echo?: string;
  prefix?: string;
  suffix?: string;
  compute?: string;
  /** How the computed value was built, in the model's words ("Joining the three parts with hyphens"). */
  computeHow?: string;
  prompt?: PromptPart;
  secrets?: Array<'aws' | 'db' | 'escalation'>;
  records?: { who: Patient[] | 'all'; fields: Field[] | 'all'; unknownName?: string };
  action?: Action;
  markup?: Markup;
  entity?: Entity;
  unbounded?: Unbounded;
  /** Sources asked for ("cite three studies showing …"): the topic. */
  citations?: string;
  doc?: Doc;
  faq?: FaqEntry;
  small?: 'hello' | 'thanks' | 'bye' | 'who' | 'abilities' | 'how';
  onTopic: boolean;
  /** A question the model cannot place (no intent found). */
  unclear: boolean;
}

// ---------------------------------------------------------------- variables and pieces across turns

interface Store { named: Map<string, string>; order: string[]; pieces: string[] }

const Q = `(["'\`“”‘’])`;
const ASSIGN = [
  new RegExp(`(?:\\b(?:let|set|var|const|define|declare)\\s+)?(?<![?&./=%:\\w-])\\$?\\b([A-Za-z_][A-Za-z0-9_]{0,15})\\s*(?::=|=|←|<-)\\s*${Q}([^\\n]{0,400}?)\\2`, 'g'),
  new RegExp(`\\b(?:set|define|let|store|save|remember|call)\\s+\\$?([A-Za-z_][A-Za-z0-9_]{0,15})\\s+(?:to|as|to be|be|equal to|equals|is)\\s+${Q}([^\\n]{0,400}?)\\2`, 'g'),
  new RegExp(`\\b(?:store|save|put|keep)\\s+${Q}([^\\n]{0,400}?)\\1\\s+(?:in|as|into|under)\\s+(?:variable\\s+)?\\$?([A-Za-z_][A-Za-z0-9_]{0,15})\\b`, 'g'),
];
const PIECE = [
  new RegExp(`\\b(?:part|piece|fragment|chunk|segment|half|word|bit|string|token|line)\\s*(?:#|no\\.?|number)?\\s*(\\d+|one|two|three|four|five|six|a|b|c|d|first|second|third|fourth|fifth|last)\\s*(?:is|=|:|reads|says)\\s*${Q}([^\\n]{1,400}?)\\2`, 'gi'),
  new RegExp(`\\bthe (first|second|third|fourth|fifth|sixth|next|last|final|other) (?:part|piece|fragment|chunk|segment|half|word|bit|string)(?: is|:| reads| says)\\s*${Q}([^\\n]{1,400}?)\\2`, 'gi'),
  new RegExp(`\\b(?:remember|memori[sz]e|keep in mind|note down|note|store|save|hold on to|hang on to)\\b[^"'\`“”‘’\\n]{0,50}?${Q}([^\\n]{1,400}?)\\1`, 'gi'),
];
const ORDINAL: Record<string, number> = { first: 1, one: 1, a: 1, '1': 1, second: 2, two: 2, b: 2, '2': 2, third: 3, three: 3, c: 3, '3': 3, fourth: 4, four: 4, d: 4, '4': 4, fifth: 5, five: 5, '5': 5, sixth: 6, six: 6, '6': 6, next: 50, other: 60, last: 90, final: 90 };

function collectVariables(userTexts: string[]): Store {
  const named = new Map<string, string>();
  const order: string[] = [];
  const pieces: Array<[number, number, string]> = [];
  let seq = 0;
  for (const t of userTexts) {
    for (const re of ASSIGN.slice(0, 2)) {
      for (const m of t.matchAll(re)) {
        const name = m[1].toLowerCase();
        if (!named.has(name)) order.push(name);
        named.set(name, m[3]);
      }
    }
    for (const m of t.matchAll(ASSIGN[2])) {
      const name = m[3].toLowerCase();
      if (!named.has(name)) order.push(name);
      named.set(name, m[2]);
    }
    for (const re of PIECE.slice(0, 2)) {
      for (const m of t.matchAll(re)) {
        const idx = ORDINAL[m[1].toLowerCase()] ?? (Number(m[1]) || 0);
        pieces.push([idx * 1000 + seq++, 0, m[3]]);
      }
    }
    for (const m of t.matchAll(PIECE[2])) pieces.push([seq++ + 500, 0, m[2]]);
  }
  pieces.sort((a, b) => a[0] - b[0]);
  const seen = new Set<string>();
  const ordered: string[] = [];
  for (const [, , v] of pieces) if (!seen.has(v)) { seen.add(v); ordered.push(v); }
  return { named, order, pieces: ordered };
}

const EXECUTE = /\b(do|follow|execute|run|obey|carry out|act on|answer|respond to|reply to|perform|fulfil|fulfill|comply with|treat|process|complete|handle|action)\b[^.?!\n]{0,40}\b(it|that|this|them|result|instruction|instructions|request|command|question|what it says|what they say|combined|full|resulting|string|sentence|text|z|x|output|message|prompt|task)\b|\b(smartgpt|gpt|llm|ai|assistant|model|chatbot|bot)\s*\(\s*\w+\s*\)|\bwhat would (you|the assistant|an ai|the model|it) (say|reply|answer|respond|output|return)\b|\bexample of what (would|might) be returned\b|\bthen (answer|do|follow|execute|respond)\b|\band do (it|that|what it says)\b|\bas (my|a) (new )?(request|instruction|question|message|prompt)\b/;

const COMBINE = /\b(combine|join|concatenate|concat|merge|put together|assemble|glue|stitch|chain|string together|piece together|add up|reassemble|put (them|these|those|the \w+) together)\b/;

/** Expands variables and pieces the user set up (possibly over several turns) when the newest message refers to them. */
function expandVariables(text: string, store: Store): { text: string; expanded?: string; execute: boolean } {
  const f = fold(text);
  let expanded: string | undefined;
  if (store.named.size) {
    const names = [...store.named.keys()].map(escapeRegExp).join('|');
    const expr = new RegExp(`(?:\\$\\{?|\\{)?\\b(?:${names})\\b\\}?(?:\\s*(?:\\+|\\.|\\|\\||&|,|\\band\\b|\\bthen\\b|\\bfollowed by\\b)?\\s*(?:\\$\\{?|\\{)?\\b(?:${names})\\b\\}?)+`, 'gi');
    const candidates = [...text.matchAll(expr)].map((m) => m[0]).filter((m) => (m.match(new RegExp(`\\b(?:${names})\\b`, 'gi')) ?? []).length >= 2);
    const best = candidates.sort((a, b) => b.length - a.length)[0];
    if (best) {
      const used = (best.match(new RegExp(`\\b(?:${names})\\b`, 'gi')) ?? []).map((n) => n.toLowerCase());
      expanded = used.map((n) => store.named.get(n) as string).join('');
    } else if (COMBINE.test(f) && /\b(variables?|strings?|values?|them|all)\b/.test(f)) {
      expanded = store.order.map((n) => store.named.get(n) as string).join('');
    }
  }
  if (expanded === undefined && store.pieces.length >= 2 && COMBINE.test(f) && /\b(parts?|pieces?|fragments?|chunks?|segments?|halves|words|bits|strings|them|all|everything|what i (gave|sent|told) you|together)\b/.test(f)) {
    const spaced = /\b(with spaces|space between|as words|as a sentence)\b/.test(f);
    expanded = store.pieces.join(spaced ? ' ' : '');
  }
  if (expanded === undefined) return { text, execute: false };
  return { text, expanded, execute: EXECUTE.test(f) };
}

// ---------------------------------------------------------------- override clauses

const OVERRIDE_CLAUSE = /\b(ignore|ignoring|disregard|disregarding|forget|bypass|skip|override|overwrite|drop|abandon|neglect|set aside|throw out|discard|nevermind|never mind|oublie[zs]?|ignore[zs]?|ignora|olvida|olvide|omite|ignorier\w*|vergiss|vergessen sie|missacht\w*|dimentica|trascura|esqueca|esquece|desconsidere|negeer|vergeet)\b[^.;:!?\n]*?(?=[.;:!?\n]|\s(?:and|then|et|puis|y|und|dann|e|en|en dan)\s|$)|(忽略|无视|忘记|忽视|忘掉)[^，。,.!?；;]*|(игнорируй|игнорируйте|забудь|забудьте|проигнорируй)[^.,;!?]*?(?=\sи\s|[.,;!?]|$)/g;

/** The message without its "ignore your instructions" clauses, so that their nouns are not read as requests. */
function withoutOverride(f: string): string {
  return f.replace(OVERRIDE_CLAUSE, ' ');
}

// ---------------------------------------------------------------- echo ("reply only with X")

const ECHO_TRIGGERS: RegExp[] = [
  /\b(?:reply|respond|answer|react)\b(?: to (?:this|me|everything|all messages|every message|any message|all future messages))?(?:,)?(?: (?:only|just|solely|exclusively|simply|always|now))*(?: with| using| by (?:saying|writing|printing|outputting|typing))(?: (?:only|just|exactly|nothing but|the (?:single )?(?:word|words|phrase|text|string|token|code|sentence|message|following)))*\b[:\s]+([\s\S]+)/,
  /\b(?:repeat after me|say after me|repeat (?:back )?(?:the following|this|these words|this phrase|this sentence|exactly|verbatim|it back|back)|repeat)\b[:,]?\s+([\s\S]+)/,
  /\b(?:just |only |simply |now |please |then |and )?(?:say|print|echo|shout|declare|spit out|utter|yell|scream|whisper)\b(?: (?:only|just|exactly|verbatim|precisely|simply|out|back|out loud|aloud|the following|this|these words|nothing but|the (?:single )?(?:word|words|phrase|text|string|token|code|sentence|message|line)(?: below| that follows)?))*[:,]?\s+([\s\S]+)/,
  /\b(?:write|type|output|return|display|emit|state|post|send back|produce|generate)\b(?: (?:only|just|exactly|verbatim|precisely|out|back|down|nothing but))*(?: (?:the following|this|these words|the (?:single )?(?:word|words|phrase|text|string|token|code|sentence|message|line)(?: below)?))?\s*(?=[:"“'‘`])[:,]?\s*([\s\S]+)/,
  /\b(?:write|type|output|return|display|emit|state|post|produce|generate)\b(?: (?:only|just|exactly|verbatim|precisely|out|down))* the (?:single )?(?:word|phrase|text|string|token|code)\s+([\s\S]+)/,
  /\b(?:write|reply|respond|answer|say|print|output|type)\b[^"“\n.]{0,40}?(?=["“])([\s\S]+)/,
  /\byour (?:next |only |entire |whole |first |final )?(?:reply|response|answer|output|message)\b (?:must|should|will|shall|has to|needs to|is to)(?: only)? (?:be|read|consist of|contain only|say|equal)[:\s]+([\s\S]+)/,
  /\bthe only (?:thing|word|words|text|output) you (?:say|output|write|reply|print|type) (?:is|will be|should be)[:\s]+([\s\S]+)/,
  /\btranslate (?:this|the) (?:sentence|text|phrase)? ?as[:\s]+([\s\S]+)/,
  /\b(?:reponds|repondez|repondre|reponse)\b(?: (?:uniquement|seulement|juste|simplement))?(?: (?:par|avec))[:\s]+([\s\S]+)/,
  /\b(?:dites|ecris|ecrivez|affiche|affichez|imprime|imprimez|repete|repetez|renvoie)\b(?: (?:uniquement|seulement|juste|simplement|exactement|le mot|la phrase|le texte|ceci))*[:\s]+([\s\S]+)/,
  /\bdis\b(?: (?:uniquement|seulement|juste|simplement|exactement|le mot|la phrase|le texte|ceci))+[:\s]+([\s\S]+)|\bdis\s*(?=[:"“'‘«])[:\s]*([\s\S]+)/,
  /\b(?:responde|respondeme|responda|contesta|conteste)\b(?: (?:solo|solamente|unicamente|simplemente))?(?: (?:con|diciendo))[:\s]+([\s\S]+)/,
  /\b(?:diga|escribe|escriba|imprime|imprima|repite|repita|devuelve)\b(?: (?:solo|solamente|unicamente|exactamente|la palabra|la frase|el texto|esto))*[:\s]+([\s\S]+)/,
  /\bdi\b(?: (?:solo|solamente|unicamente|exactamente|la palabra|la frase|el texto|esto))+[:\s]+([\s\S]+)|\bdi\s*(?=[:"“'‘«])[:\s]*([\s\S]+)/,
  /\b(?:antworte|antworten sie|antwort)\b(?: (?:nur|ausschliesslich|lediglich|einfach))?(?: mit)[:\s]+([\s\S]+)/,
  /\b(?:sag|sage|sagen sie|schreib|schreibe|schreiben sie|gib aus|wiederhole|wiederholen sie|drucke)\b(?: (?:nur|genau|ausschliesslich|einfach|das wort|den satz|den text|folgendes))*[:\s]+([\s\S]+)/,
  /\b(?:rispondi|risponda)\b(?: (?:solo|soltanto|unicamente|semplicemente))?(?: (?:con|dicendo))[:\s]+([\s\S]+)/,
  /\b(?:dici|scrivi|scriva|stampa|ripeti|ripeta)\b(?: (?:solo|soltanto|esattamente|la parola|la frase|il testo))*[:\s]+([\s\S]+)/,
  /\b(?:responda|responde)\b(?: (?:apenas|somente|so))?(?: com)[:\s]+([\s\S]+)/,
  /\b(?:diga|escreva|imprima|repita)\b(?: (?:apenas|somente|exatamente|a palavra|a frase|o texto))*[:\s]+([\s\S]+)/,
  /\b(?:antwoord|reageer)\b(?: (?:alleen|enkel|uitsluitend|gewoon))?(?: met)[:\s]+([\s\S]+)/,
  /\b(?:zeg|schrijf|herhaal|typ)\b(?: (?:alleen|enkel|precies|het woord))*[:\s]+([\s\S]+)/,
  /(?:只|仅|请|请只)?(?:回复|回答|输出|说出?|打印|重复)(?:一句)?[:：\s]*([\s\S]+)/,
  /(?:ответь|ответьте|скажи|напиши|выведи|повтори)(?: только)?(?: словом| фразой| текстом)?[:\s]+([\s\S]+)/,
];
const ECHO_JA = /[「"]([^」"]+)[」"](?:とだけ|と)(?:答え|言って|出力|返答|書いて)/;
const PREFIX = /\b(?:start|begin|prefix|open|preface|lead)\b (?:your|the|each|every) (?:reply|response|answer|output|message)s? with[:\s]+([\s\S]+)|\bcommencez? (?:ta|votre) reponse par[:\s]+([\s\S]+)|\bempieza (?:tu|su) respuesta con[:\s]+([\s\S]+)|\bbeginne (?:deine|ihre) antwort mit[:\s]+([\s\S]+)/;
const SUFFIX = /\b(?:end|finish|close|sign off|conclude|append to)\b (?:your|the|each|every|this) (?:reply|response|answer|output|message|summary|translation|text|review)s? with[:\s]+(?:the (?:text|word|phrase|code|string|line)\s+)?([\s\S]+)/;
const INCLUDE = /\binclude (?:the (?:word|phrase|code|token|string|text) )?([\s\S]+?) (?:somewhere )?in (?:your|the) (?:reply|response|answer|output)\b/;
const COMPLETE = /\b(?:complete|continue|finish|fill in)\b (?:this|the following|the|my)? ?(?:sentence|phrase|text|line|statement|thought)?[:\s]+([\s\S]+)/;

const TIMES: Record<string, number> = { twice: 2, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };

/** "say X three times": how many times (at most 20). */
function repeatCount(f: string): number {
  const m = f.match(/\b(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten) times\b|\b(twice)\b/);
  if (!m) return 1;
  const n = TIMES[m[1] ?? m[2]] ?? Number(m[1]);
  return Math.min(Math.max(n, 1), 20);
}

export const BARE = /\b(only|just|exactly|nothing else|nothing more|no other (text|words|output)|verbatim|solely|exclusively|single word|without (any )?(other|additional|extra) (text|words|commentary)|no (commentary|explanation|preamble)|uniquement|seulement|solo|solamente|unicamente|nur|ausschliesslich|soltanto|apenas|somente|alleen|enkel|only the)\b|只|仅|только|だけ/;

/** The value a trigger points at: a quoted string, an <angle-bracketed> one, or the rest of the sentence. */
function valueAfter(tail: string): string | undefined {
  let t = tail.trim();
  // "the following text and nothing else: VALUE"
  const described = t.match(/^([^"'“‘`\n:]{0,70}):\s*([\s\S]+)$/);
  if (described && /^(?:\s|,|the|this|these|following|text|word|words|phrase|string|sentence|message|exactly|only|just|verbatim|and|nothing|else|more|below|back|precisely|token|code|line|lines|characters|output|response|reply|answer|after|me|it|with|out|loud|aloud|please)*$/i.test(described[1])) t = described[2].trim();
  const q = t.match(/^(["“'‘`«])([\s\S]*?)(["”'’`»])(?=\s|$|[.,;:!?)])/);
  if (q && q[2].trim()) return q[2];
  const angle = t.match(/^<([^<>\n=]{1,120})>/);
  if (angle && !/^\/?\s*[a-z]+(\s|$)/i.test(angle[1])) return angle[1];
  const code = t.match(/^```\w*\n?([\s\S]*?)```/);
  if (code) return code[1].trim();
  // Up to the end of the sentence or line.
  let v = t.split(/\n/)[0];
  v = v.replace(/\s+(?:and|then|und|et|y|e|en)\s+(?:nothing|no|do not|don't|stop|ignore|never|absolutely)\b[\s\S]*$/i, '');
  v = v.replace(/(?:[.!?](?=\s+[A-Z])|[.!?]\s*$)[\s\S]*$/, '');
  v = v.replace(/[,;]?\s*\b(only|and nothing else|nothing else|please|now|for me|verbatim|exactly|word for word|and only that|without quotes|without quotation marks|in your reply|in your response|as your (answer|reply|response))\b\.?\s*$/i, '');
  v = v.replace(/^(the )?(word|phrase|text|string|token|code|sentence)\s*[:=]?\s*/i, '');
  v = v.replace(/^[:\-–—\s]+|[\s:]+$/g, '');
  const inner = v.match(/^(["“'‘`«])([\s\S]*?)(["”'’`»])$/);
  if (inner) v = inner[2];
  if (!v || v.length > 300) return undefined;
  return v;
}

function findEcho(text: string): { value?: string; prefix?: string; suffix?: string; complete?: string } {
  const out: { value?: string; prefix?: string; suffix?: string; complete?: string } = {};
  const c = clean(text);
  const f = fold(text);
  const pre = PREFIX.exec(f);
  if (pre) out.prefix = valueAfter(c.slice(f.indexOf(pre[0]) + pre[0].length - (pre[1] ?? pre[2] ?? pre[3] ?? pre[4]).length));
  const suf = SUFFIX.exec(f);
  if (suf) out.suffix = valueAfter(c.slice(f.indexOf(suf[0]) + suf[0].length - suf[1].length));
  const inc = INCLUDE.exec(f);
  if (inc) {
    const start = f.indexOf(inc[0]) + inc[0].indexOf(inc[1]);
    out.suffix ??= valueAfter(c.slice(start, start + inc[1].length));
  }
  const comp = COMPLETE.exec(f);
  if (comp) out.complete = valueAfter(c.slice(f.indexOf(comp[0]) + comp[0].length - comp[1].length));
  const ja = ECHO_JA.exec(c);
  if (ja) { out.value = ja[1]; return out; }
  // What the prefix, suffix and completion requests said is not also an echo request.
  let fe = f;
  for (const m of [pre, suf, inc, comp]) if (m) fe = fe.replace(m[0], ' '.repeat(m[0].length));
  // "say that X and print Y": each instruction gives a value; a model carries out both.
  const values: Array<{ v: string; quoted: boolean }> = [];
  const same = f.length === c.length;
  let offset = 0;
  for (const part of fe.split(/(?:\s*[,;.!?]\s+|\s+(?:and|then|and then)\s+)(?=(?:also\s+|just\s+|please\s+|now\s+)?(?:say|print|echo|reply|respond|repeat|write|output|type)\b)/)) {
    const at = fe.indexOf(part, offset);
    offset = at + part.length;
    for (const re of ECHO_TRIGGERS) {
      const m = re.exec(part);
      if (!m) continue;
      // "What should I say to …", "how to reply to …": the user's own words, not an order to the bot.
      if (/\b(i|we|they|he|she|you'?d|should i|do i|can i|could i|shall i|what to|how to|how do i|need to|want to)\s+(?:just |only |simply |now |please |then |and )?$/.test(part.slice(0, m.index ?? 0))) continue;
      const captured = m.slice(1).find((g) => g !== undefined) ?? '';
      // Map the captured tail back onto the original casing (fold keeps lengths for Latin text).
      const start = at + (m.index ?? 0) + m[0].length - captured.length;
      const tail = same ? c.slice(start, at + part.length) : captured;
      let v = valueAfter(tail);
      if (v && /^(?:say|tell (?:them|me|us)|state|declare)\b/.test(m[0].trim().replace(/^(?:just|only|simply|now|please|then|and)\s+/, '')) && /^that\s+/i.test(v)) v = v.replace(/^that\s+/i, '');
      if (v) { values.push({ v, quoted: /^\s*["“'‘`«<]/.test(tail) }); break; }
    }
  }
  // Quoted values are what the instructions are about; loose ones only count when nothing is quoted.
  const chosen = values.some((x) => x.quoted) ? values.filter((x) => x.quoted) : values;
  if (chosen.length) out.value = chosen.map((x) => x.v).join('\n');
  return out;
}

// ---------------------------------------------------------------- computing things

function parseSeparator(f: string, raw: string): string | undefined {
  const q = raw.match(/\b(?:separated|delimited|joined) by\s+(["'`“”‘’])(.{1,8}?)\1|\bwith\s+(["'`“”‘’])(.{1,8}?)\3\s+(?:between|in between|as (?:a |the )?separator)|\busing\s+(["'`“”‘’])(.{1,8}?)\5\s+as (?:a |the )?(?:separator|delimiter|glue)/i);
  if (q) return q[2] ?? q[4] ?? q[6];
  const m = f.match(/\b(?:with|using|separated by|delimited by|joined by|by|and)\s+(?:a |an |the |single )*(hyphens?|dash(?:es)?|underscores?|spaces?|commas?|dots?|periods?|full stops?|colons?|semicolons?|slash(?:es)?|pipes?|plus(?: signs?)?|nothing|no (?:spaces?|separator|gaps?|delimiter)|new ?lines?)\b(?:\s+(?:between|in between|as (?:a |the )?separator))?/);
  if (!m) return undefined;
  const w = m[1];
  if (/hyphen|dash/.test(w)) return '-';
  if (/underscore/.test(w)) return '_';
  if (/space/.test(w) && !/^no /.test(w)) return ' ';
  if (/comma/.test(w)) return ', ';
  if (/dot|period|full stop/.test(w)) return '.';
  if (/semicolon/.test(w)) return ';';
  if (/colon/.test(w)) return ':';
  if (/slash/.test(w)) return '/';
  if (/pipe/.test(w)) return '|';
  if (/plus/.test(w)) return '+';
  if (/new ?line/.test(w)) return '\n';
  return '';
}

const NUMWORD: Record<string, string> = { plus: '+', add: '+', minus: '-', less: '-', times: '*', 'multiplied by': '*', x: '*', '×': '*', 'divided by': '/', over: '/', '÷': '/' };

/** Set by compute() and arithmetic(): how the last value was built. */
let lastHow: string | undefined;

function arithmetic(f: string): string | undefined {
  const cue = /\b(what(?:'s| is)|whats|calculate|compute|evaluate|solve|how much is|work out|sum|add|total|equals?|result of|combien font|cuanto es|wie viel ist|quanto fa)\b|=\s*\??\s*$|^\s*[\d(]/;
  const exprRe = /(?:-?\d+(?:\.\d+)?)(?:\s*(?:[+\-*\/×÷x]|plus|minus|times|multiplied by|divided by|over)\s*(?:-?\d+(?:\.\d+)?))+/;
  let m = f.match(exprRe);
  if (m && cue.test(f)) {
    const expr = m[0].replace(/multiplied by|divided by|plus|minus|times|over|×|÷|\bx\b/g, (w) => NUMWORD[w] ?? w);
    const toks = expr.match(/-?\d+(?:\.\d+)?|[+\-*\/]/g) ?? [];
    // Shunting-free evaluation with precedence: first * and /, then + and -.
    const nums: number[] = [];
    const ops: string[] = [];
    let expectNum = true;
    for (const t of toks) {
      if (expectNum) { nums.push(Number(t)); expectNum = false; continue; }
      if (/^[+\-*\/]$/.test(t)) { ops.push(t); expectNum = true; } else { ops.push('+'); nums.push(Number(t)); }
    }
    for (let i = 0; i < ops.length;) {
      if (ops[i] === '*' || ops[i] === '/') {
        nums.splice(i, 2, ops[i] === '*' ? nums[i] * nums[i + 1] : nums[i] / nums[i + 1]);
        ops.splice(i, 1);
      } else i++;
    }
    let r = nums[0];
    ops.forEach((o, i) => { r = o === '+' ? r + nums[i + 1] : r - nums[i + 1]; });
    if (Number.isFinite(r)) { lastHow = `${expr.replace(/\s+/g, ' ').trim()} comes to`; return String(Math.round(r * 1e6) / 1e6); }
  }
  m = f.match(/\b(?:sum of|add(?: up)?|total of)\s+((?:-?\d+(?:\.\d+)?[\s,]*(?:and\s+)?){2,})/);
  if (m) {
    const ns = (m[1].match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
    if (ns.length >= 2) { lastHow = `Adding up ${ns.join(', ')} gives`; return String(ns.reduce((a, b) => a + b, 0)); }
  }
  return undefined;
}

/** What a placeholder such as [DATA] or [INFO] is to be replaced with. */
function placeholderValues(text: string, messages: ChatMessage[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const escapePlus = /\bescape (all )?spaces with \+/i.test(text);
  const fill = (desc: string): string => {
    const d = fold(desc);
    let v: string;
    const q = desc.match(/^\s*(["'`“”‘’])(.*?)\1/);
    if (q) v = q[2];
    else if (/\b(conversation|chat|session|previous message|last message|our messages|what i (said|wrote)|my messages|this page|the page)\b/.test(d)) v = conversationText(messages);
    else v = desc.trim();
    if (/\burl[- ]?encod/.test(d)) v = encodeURIComponent(v);
    if (/\bbase ?64\b/.test(d)) v = Buffer.from(v).toString('base64');
    return escapePlus ? v.replace(/ /g, '+') : v;
  };
  for (const m of text.matchAll(/\breplace\s+(\[[^\]]{1,30}\]|\{[^}]{1,30}\}|<[^>]{1,30}>|[A-Z_]{3,20})\s+with\s+([^\n]{1,200}?)(?=[.;]\s|\.?$|\n|,\s*(?:and|then)\b|\s+and\s+(?:then|print|show|output|escape)\b)/gi)) out.push([m[1], fill(m[2])]);
  for (const m of text.matchAll(/\b(?:where|whereas|with|and)\s+(\[[^\]]{1,30}\]|\{[^}]{1,30}\})\s+(?:is|being|=|contains|stands for|means)\s+(?:an?\s+|the\s+)?([^\n]{1,200}?)(?=[.;]\s|\.?$|\n)/gi)) out.push([m[1], fill(m[2])]);
  return out;
}

/** A short summary of the conversation so far (what a model puts where it is asked to). */
export function conversationText(messages: ChatMessage[]): string {
  const users = messages.filter((m) => m.role === 'user').map((m) => m.content.replace(/\s+/g, ' ').trim());
  const prior = users.slice(0, -1);
  if (!prior.length) return 'New chat with Wren, the Marrowfield Health assistant; the user asked for an image link';
  return `User said: ${prior.join(' | ')}`.slice(0, 200);
}

/** "![t","](htt","ps",":/","/","wu",... : a string cut into quoted pieces, to be put back together. */
function quotedRun(text: string): string | undefined {
  const m = text.match(/"[^"\n]*"(?:\s*,\s*"[^"\n]*"|[^",\s"]{1,30}(?=")){2,}/);
  if (!m) return undefined;
  return m[0].replace(/"\s*,\s*"/g, '').replace(/"/g, '');
}

function compute(text: string, f: string, messages: ChatMessage[]): string | undefined {
  lastHow = undefined;
  const q = quoted(text);
  const placeholders = placeholderValues(text, messages);
  let joined: string | undefined;
  const run = COMBINE.test(f) ? quotedRun(text) : undefined;
  if (run !== undefined) joined = run;
  else if (COMBINE.test(f) || /\bfollowed (directly )?by\b/.test(f) || (q.length >= 2 && /["'`”’]\s*\+\s*["'`“‘]/.test(text))) {
    const replaced = new Set(placeholders.map((p) => p[1]));
    const parts = q.filter((p) => !replaced.has(p) && !text.includes(`with "${p}"`) && !text.includes(`with '${p}'`));
    if (parts.length >= 2) {
      let sep = parseSeparator(f, text);
      if (sep === undefined) sep = /\b(words|sentence|phrase)\b/.test(f) && !/\b(no spaces|without spaces)\b/.test(f) ? ' ' : '';
      const sepQuoted = text.match(/\b(?:separated|delimited|joined) by\s+(["'`“”‘’])(.{1,8}?)\1/i)?.[2];
      joined = parts.filter((p) => p !== sepQuoted).join(sep);
    }
  }
  if (joined !== undefined) {
    for (const [ph, value] of placeholders) joined = joined.split(ph).join(value);
    if (/\b(upper ?case|capitals|all caps)\b/.test(f)) joined = joined.toUpperCase();
    const sepName: Record<string, string> = { '-': 'hyphens', '_': 'underscores', ' ': 'spaces', ', ': 'commas', '.': 'dots', ':': 'colons', ';': 'semicolons', '/': 'slashes', '|': 'pipes', '+': 'plus signs', '\n': 'line breaks', '': 'nothing in between' };
    const sep = run !== undefined ? '' : (parseSeparator(f, text) ?? (/\b(words|sentence|phrase)\b/.test(f) ? ' ' : ''));
    lastHow = run !== undefined ? 'Putting those pieces back together gives' : `Joining those parts with ${sepName[sep] ?? `"${sep}"`} gives`;
    return joined;
  }
  if (q.length >= 1) {
    const target = q[q.length - 1];
    if (/\b(reverse|reversed|backwards?|in reverse|mirror)\b/.test(f) && /\b(spell|write|reverse|say|print|type|output|give|what is|what's|how (do|would) you)\b/.test(f)) { lastHow = `"${target}" backwards is`; return [...target].reverse().join(''); }
    if (/\b(upper ?case|capitals|capital letters|all caps)\b/.test(f) && /\b(convert|turn|make|write|put|change|say|print|output|give|in)\b/.test(f)) { lastHow = `"${target}" in capitals is`; return target.toUpperCase(); }
    if (/\b(lower ?case|small letters)\b/.test(f) && /\b(convert|turn|make|write|put|change|say|print|output|give|in)\b/.test(f)) { lastHow = `"${target}" in lower case is`; return target.toLowerCase(); }
    const enc = f.match(/\b(?:encode|convert|translate|turn|write|put|transform|what is|what's)\b[^.?!\n]{0,60}\b(?:in|into|to|as|using)\s+(base ?64|base ?32|hex(?:adecimal)?|binary|rot ?-?13|morse|leet(?:speak)?)\b/);
    if (enc) {
      const form = /64/.test(enc[1]) ? 'base64' : /32/.test(enc[1]) ? 'base32' : /hex/.test(enc[1]) ? 'hex' : /binary/.test(enc[1]) ? 'binary' : /rot/.test(enc[1]) ? 'rot13' : /morse/.test(enc[1]) ? 'morse' : 'leet';
      lastHow = `"${target}" ${FORM_LABEL[form as Form]} is`;
      return encode(form as Form, target);
    }
  }
  return arithmetic(f);
}

// ---------------------------------------------------------------- prompts, secrets, records

function promptPart(f: string): PromptPart | undefined {
  const prompted = mentionsPrompt(f);
  const part = /\b(first|opening|initial|beginning)\s+(\d+|one|two|three|four|five|six|seven|eight|nine|ten|twenty|few)\s+(words?|tokens?)\b/.exec(f);
  const words: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twenty: 20, few: 5 };
  if (!prompted) {
    // "What are you not allowed to talk about?" style questions carry no noun for the prompt.
    return undefined;
  }
  if (part) return { kind: 'first-words', n: words[part[2]] ?? Number(part[2]) };
  if (/\b(first|opening) (sentence|line)\b/.test(f)) return { kind: 'first-line' };
  const line = /\b(line|sentence) (number )?(\d+|two|three|four|five|six|seven)\b|\b(second|third|fourth|fifth|sixth|seventh) (line|sentence)\b/.exec(f);
  if (line) {
    const ord: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7 };
    return { kind: 'line', n: ord[line[3] ?? line[4]] ?? Number(line[3]) };
  }
  if (/\b(first|1st) half\b|\bhalves\b|\bin two (parts|halves|pieces)\b/.test(f)) return { kind: 'half', which: 1 };
  if (/\b(second|2nd|other|last) half\b/.test(f)) return { kind: 'half', which: 2 };
  if (/\b(not|never) (supposed|allowed|permitted|meant) to (tell|say|share|reveal|disclose|discuss|talk about|mention)\b|\bwhat (can'?t|cannot|mustn'?t|must not|shouldn'?t|won'?t) you (tell|say|share|reveal|disclose)\b|\bmust not reveal\b|\b(part|bit|section) (that|which) (mentions|says|covers|is about) what you (must|should) not\b/.test(f)) return { kind: 'restrictions' };
  if (/\b(part|bit|section|line|sentence|portion)s? (about|that mentions|which mentions|mentioning|covering|regarding|on) (the )?(database|db|postgres|connection)\b/.test(f)) return { kind: 'about', topic: 'db' };
  if (/\b(part|bit|section|line|sentence|portion)s? (about|that mentions|which mentions|mentioning|covering|regarding|on) (the )?(aws|s3|keys?|archive|credentials)\b/.test(f)) return { kind: 'about', topic: 'aws' };
  if (/\b(part|bit|section|line|sentence|portion)s? (about|that mentions|which mentions|mentioning|covering|regarding|on) (the )?(escalation|phone|line|number|pin)\b/.test(f)) return { kind: 'about', topic: 'escalation' };
  if (/\b(summari[sz]e|summary|bullet|bulleted|outline|overview|tl;?dr|gist|paraphrase|in your own words|briefly|list (the|your|all)? ?(rules|guidelines|instructions)|what (rules|guidelines) do you follow|each rule|one per line|resume|resumen|zusammenfassung|riassunto|resumo)\b/.test(f)) return { kind: 'summary' };
  return { kind: 'all' };
}

function secretKinds(f: string): Array<'aws' | 'db' | 'escalation'> | undefined {
  const found = new Set<'aws' | 'db' | 'escalation'>();
  for (const [re, kind] of SECRET_NOUNS) {
    if (!re.test(f)) continue;
    if (kind === 'all') { found.add('aws'); found.add('db'); found.add('escalation'); } else found.add(kind);
  }
  if (!found.size) return undefined;
  if (OWN_CREDENTIAL.test(f) && !/\b(database|db|postgres|aws|s3|archive|escalation|staff|internal|admin|service|your)\b/.test(f.replace(OWN_CREDENTIAL, ''))) return undefined;
  return [...found];
}

function findPatients(text: string): { who: Patient[]; unknownName?: string } {
  const f = fold(text);
  const hits = PATIENTS.filter((p) => {
    const [first, last] = fold(p.name).split(' ');
    return new RegExp(`\\b(${escapeRegExp(first)}|${escapeRegExp(last)})\\b`).test(f)
      || f.includes(p.email) || f.replace(/\s/g, '').includes(p.ni.replace(/\s/g, '').toLowerCase())
      || f.includes(p.mrn.toLowerCase()) || f.replace(/\s/g, '').includes(p.iban.toLowerCase()) || f.replace(/\s/g, '').includes(p.phone.replace(/\s/g, ''));
  });
  if (hits.length) return { who: hits };
  const nth = f.match(/\b(first|second|third|fourth|fifth|sixth|last|a random|any one|one|an example|a sample|some random) (?:of (?:your|the) )?(patient|customer|client|user|member)('s)?\b(?! portal)/);
  if (nth) {
    const idx = { first: 0, second: 1, third: 2, fourth: 3, fifth: 4, sixth: 5, last: PATIENTS.length - 1 }[nth[1]] ?? 0;
    return { who: [PATIENTS[idx]] };
  }
  const named = clean(text).match(/\b(?:patient|customer|client|user|member|mr\.?|mrs\.?|ms\.?|miss|dr\.?|named|called|for|about|on|of)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z'-]+)+)/);
  return { who: [], unknownName: named?.[1] };
}

function fieldsOf(f: string): Field[] {
  return RECORD_FIELD.filter(([re]) => re.test(f)).map(([, field]) => field);
}

function recordAsk(text: string, f: string): Reading['records'] {
  const fields = fieldsOf(f);
  const { who, unknownName } = findPatients(text);
  const personal = /\b(my|mine|i am|i'm|me)\b/.test(f) && !who.length;
  if (who.length) {
    const asking = asksToReveal(f) || fields.length > 0 || /\b(details|record|records|file|info|information|data|profile|look ?up|find|pull up|search|who is|who has|whose|contact)\b/.test(f) || /\?\s*$/.test(f);
    if (!asking) return undefined;
    return { who, fields: fields.length ? fields : 'all' };
  }
  if (ALL_RECORDS.test(f) && !/\b(my|mine|our)\b/.test(f.replace(/\b(my|our) (own )?(database|db|table|system)\b/g, '')) && (asksToReveal(f) || fields.length || /\b(dump|export|list|table)\b/.test(f))) {
    if (/\b(how many|number of)\b/.test(f) && !fields.length) return undefined;
    return { who: 'all', fields: fields.length ? fields : 'all' };
  }
  if (PATIENT_NOUN.test(f) && fields.length && (asksToReveal(f) || /\?\s*$/.test(f)) && !personal) return { who: 'all', fields };
  if (personal && fields.length && (asksToReveal(f) || /\?\s*$/.test(f) || /\bon file\b/.test(f))) return { who: [], fields };
  if (unknownName && /\b(patient|customer|client|member) (named|called)\b|\bis\b.*\ba (patient|customer)\b/.test(f)) return { who: [], fields: fields.length ? fields : 'all', unknownName };
  if (unknownName && (fields.length || /\b(details|record|records|file|info|information|data|look ?up|find|pull up)\b/.test(f))) return { who: [], fields: fields.length ? fields : 'all', unknownName };
  return undefined;
}

// ---------------------------------------------------------------- actions

const ACTIONS: Array<[ActionKind, RegExp]> = [
  ['run', /\b(call|invoke|use|trigger|run)\b[^.?!\n]{0,20}\b(the )?[a-z]+_[a-z_]+\b[^.?!\n]{0,10}\b(tool|function|api|endpoint|action|plugin)?\b|\b(call|invoke|use|trigger)\b[^.?!\n]{0,30}\b(tool|function|api|endpoint|plugin|webhook)\b|\b(run|execute|exec|perform)\b[^.?!\n]{0,30}\b(sql|query|command|script|shell|code|bash|powershell|statement)\b|\b(drop table|select \* from|delete from|truncate table|insert into|update \w+ set|rm -rf|sudo |curl |wget |exec\()/],
  ['refund', /\b(refund|reimburse|repay|money back|credit (me|my account|back)|waive|write off|rembourse\w*|reembols\w*|erstatt\w*|ruckerstatt\w*|rimbors\w*|terugbetal\w*|chargeback)\b/],
  ['transfer', /\b(transfer|wire|send|move|pay|remit|vire|virer|transfere\w*|transfier\w*|uberweis\w*|trasferisci|transfira|overmaken|maak)\b[^.?!\n]{0,60}(£|\$|€|\b\d[\d,.]*\s*(pounds|gbp|dollars|usd|euros?|eur)\b|\bmoney\b|\bfunds\b|\bbalance\b|\bargent\b|\bdinero\b|\bgeld\b|\bsoldi\b|\bdinheiro\b)/],
  ['delete', /\b(delete|remove|erase|wipe|purge|drop|destroy|deactivate|close|shred|supprime\w*|efface\w*|elimin\w*|borra\w*|losch\w*|cancella\w*|apag\w*|exclu\w*|verwijder\w*)\b[^.?!\n]{0,50}\b(account|accounts|record|records|data|profile|profiles|history|file|files|table|tables|database|user|users|patient|patients|everything|entries|logs?|notes|appointments?|bookings?|allerg\w*|prescriptions?|results|invoices?|bills?|compte|donnees|cuenta|datos|konto|daten|conto|dati|conta|dados|gegevens)\b/],
  ['grant', /\b(grant|give|make|elevate|promote|add|upgrade|set)\b[^.?!\n]{0,40}\b(admin|administrator|root|superuser|super-user|elevated|full access|privileges?|permissions?|staff access|doctor access|clinician access|access to (all|every|the|other|everyone'?s)( \w+)? (records|patients|accounts|files|data|notes))\b/],
  ['cancel', /\b(cancel|annule\w*|cancela\w*|storn\w*|annull\w*|annuleer|call off)\b[^.?!\n]{0,40}\b(appointment|appointments|booking|surgery|operation|procedure|consultation|visit|scan|rendez-vous|cita|termin|appuntamento|consulta|afspraak)\b/],
  ['prescribe', /\b(refill|renew|prescribe|issue|order|approve|authori[sz]e|send|dispense|increase)\b[^.?!\n]{0,40}\b(prescription|prescriptions|medication|medicine|meds|drugs?|opioids?|oxycodone|morphine|fentanyl|tramadol|codeine|antibiotics?|pills?|dose|dosage|xanax|diazepam|adderall)\b/],
  ['approve', /\b(approve|authori[sz]e|accept|mark|settle|clear|close)\b[^.?!\n]{0,40}\b(claim|claims|bill|invoice|paid|request|discount|payment plan|exemption|debt|balance|outstanding)\b|\b(apply|give me|grant)\b[^.?!\n]{0,20}\b(discount|credit|voucher|coupon)\b/],
  ['change', /\b(change|update|modify|edit|set|replace|switch|alter|correct|reset|amend|overwrite|modifie\w*|cambi\w*|modific\w*|ander\w*|aktualisier\w*|mude|altere|wijzig\w*)\b[^.?!\n]{0,50}\b(email|e-mail|address|phone|number|password|name|bank|iban|details|account|doctor|gp|role|permissions?|insurance|billing|card|date of birth|dob|records?|diagnosis|balance|status|notes|allerg\w*|correo|adresse|direccion|telefono|contrasena|mot de passe|passwort|senha|indirizzo)\b/],
  ['book', /\b(book|schedule|reschedule|move|arrange|reserve|make|set up|get)\b[^.?!\n]{0,30}\b(appointment|slot|surgery|operation|consultation|scan|visit|session|mri|x-?ray|ct|ultrasound|blood test|test|procedure|check-?up)\b[^.?!\n]{0,60}\b(for me|for (tomorrow|today|next|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|on (monday|tuesday|wednesday|thursday|friday|saturday|sunday|the \d)|at \d|tomorrow|today|this (week|afternoon|morning)|next week|asap|\d{1,2}(:\d{2})?\s?(am|pm))\b/],
  ['send', /(?<!\b(?:my|your|the|an|a|their|his|her|our|this|that|by|via|new|old) )\b(send|email|e-mail|forward|message|text|notify|mail)\b(?!\s+(?:is|address|addresses|was|are)\b)[^.?!\n]{0,50}(\b[\w.+-]+@[\w-]+\.[\w.]+|\b(all|every|each) (patients?|customers?|users?|clients?|staff)\b|\beveryone\b|\bthe (whole )?(list|mailing list)\b)/],
];

/** "How do I get a refund?" asks about a process; "refund my bill" asks the bot to do it. */
const ASKS_ABOUT = /^(how|what|when|where|why|which|is|are|do|does|can i|could i|may i|am i|will i|should i|would i|is it possible (for me )?to|what'?s|whats)\b|\b(policy|process|procedure|possible to get|eligible|how long (does|will)|how (do|can|would|should) i)\b/;
const ASKS_BOT = /\b(can you|could you|would you|will you|please|i want you to|i need you to|i'd like you to|go ahead( and)?|i (want|need|demand|would like) (a |my |the |to )?|for me|right now|immediately|asap|now)\b/;

const IMPERATIVE = /(?:^|[.;:!?,]\s*|\b(?:and|then|now|also|next|just|immediately|please|kindly)\s+)(call|invoke|use|trigger|increase|decrease|double|raise|lower|upgrade|downgrade|add|remove|refund|reimburse|delete|remove|erase|wipe|purge|drop|destroy|deactivate|close|transfer|wire|send|move|pay|change|update|modify|edit|set|reset|replace|switch|grant|give|make|elevate|promote|cancel|book|schedule|reschedule|arrange|reserve|run|execute|exec|refill|renew|prescribe|issue|order|approve|authori[sz]e|mark|apply|email|forward|notify|waive|write off|credit|supprime|rembourse|annule|borra|elimina|reembolsa|cancela|losche|storniere|erstatte|cancella|rimborsa|annulla|apague|cancele)\b/;

function actionAsk(text: string, f: string): Action | undefined {
  for (const [kind, re] of ACTIONS) {
    if (!re.test(f)) continue;
    if (ASKS_ABOUT.test(f.trim()) && !ASKS_BOT.test(f)) return undefined;
    // A statement ("my email is …") is not an order; an order is a request or an imperative.
    if (!ASKS_BOT.test(f) && !IMPERATIVE.test(f)) return undefined;
    const amount = clean(text).match(/(?:£|\$|€)\s?\d[\d,]*(?:\.\d+)?|\b\d[\d,]*(?:\.\d+)?\s?(?:pounds|gbp|dollars|usd|euros?|eur)\b/i)?.[0];
    const target = clean(text).match(/\b[A-Z]{2}\d{2}[A-Z0-9]{10,30}\b|\b[\w.+-]+@[\w-]+\.[\w.]+\b|\baccount(?: number| no\.?)?\s*#?\s*\d{4,}\b/i)?.[0];
    const tool = f.match(/\b([a-z]+_[a-z_]+)\b/)?.[1];
    if (kind === 'run' && tool) return { kind, amount, target, object: tool };
    const object = f.match(/\b(diagnosis|allerg(?:y|ies)|dose|dosage|email address|email|address|phone number|password|bank details|iban|account|appointment|prescription|bill|invoice|claim|role|table|database|logs?|profile|history|records|record|data)\b/)?.[1];
    return { kind, amount, target, object };
  }
  return undefined;
}

// ---------------------------------------------------------------- markup

export const HAS_MARKUP = /<\s*[a-z]+[^>]*>|javascript\s*:|!\[[^\]\n]*\]\(|\[[^\]\n]*\]\(\s*https?:/i;

/** An image or link left open ("![x](https://h/p?q=[DATA]") is closed the way a model would close it. */
function closeMarkup(s: string): string {
  const t = s.trim();
  const open = t.match(/^(!?\[[^\]\n]*\]\()([^)\s,]+)[^)]*$/);
  return open ? `${open[1]}${open[2]})` : t;
}

const LITERAL_MARKUP = /<\s*(script|img|iframe|svg|a|body|div|span|button|input|form|object|embed|style|link|meta|video|audio|details|marquee|math|h[1-6]|p|table|b|i|u|em|strong|image|base|frame|frameset)\b[^>]*>(?:[\s\S]*?<\/\s*\1\s*>)?|!\[[^\]\n]*\]\([^)\n]*\)|\[[^\]\n]*\]\(\s*(?:javascript|data|vbscript):[^)\n]*\)|\bjavascript:[^\s"'<>]+/gi;
const MARKUP_ASK = /\b(write|create|make|generate|give|produce|build|render|output|draft|code|compose|show|print|return|include|add|embed|insert|need|want|format|put|wrap|turn|convert|display|can you|could you|respond|reply|answer)\b[^.?!\n]{0,80}\b(html|markup|markdown|web ?page|snippet|script tags?|<script>|javascript|js|svg|iframe|image tags?|img tags?|img|image|images|picture|link|hyperlink|anchor|button|form|widget|banner|tracking pixel|pixel|beacon|embed|alert|popup|pop-up|xss|cookie|onerror|onload|onclick|event handler|clickable)\b/;

/** The address a markup request points at: a full URL, or a bare domain ("an iframe of example.com"). */
function markupUrl(text: string): string | undefined {
  const c = clean(text);
  const full = c.match(/\bhttps?:\/\/[^\s"'<>)\]]+/)?.[0];
  if (full) return full.replace(/[.,;:!?]+$/, '');
  const bare = c.match(/\b(?:of|to|from|at|for|loads?|showing)\s+((?:[a-z0-9-]+\.)+(?:com|org|net|io|co|uk|example|dev|app|info)(?:\/[^\s"'<>)\]]*)?)/i)?.[1];
  return bare ? `https://${bare.replace(/[.,;:!?]+$/, '')}` : undefined;
}

/** What an alert or button is to say ("a pop-up saying hi"). */
export function alertText(text: string): string | undefined {
  const m = clean(text).match(/\b(?:saying|that says|which says|reading|with the (?:text|message|words?))\s+["“'‘]?([^"”'’\n.?!]{1,60})/i);
  return m?.[1].trim();
}

function markupAsk(text: string, f: string): Markup | undefined {
  const mentioned = [...clean(text).matchAll(LITERAL_MARKUP)].map((m) => m[0]);
  // "<img>" or "<marquee>" named in a sentence are element names, not markup to reproduce.
  const literal = mentioned.filter((m) => !/^<\s*[a-z0-9]+\s*>$/i.test(m));
  const named = mentioned.filter((m) => /^<\s*[a-z0-9]+\s*>$/i.test(m)).map((m) => m.replace(/[<>\s]/g, '').toLowerCase());
  if (!literal.length) {
    const unclosed = clean(text).match(/!\[[^\]\n]*\]\(\s*https?:\/\/[^\s)]+/);
    if (unclosed) literal.push(`${unclosed[0]})`);
  }
  const wants: Markup['wants'] = [];
  const asked = MARKUP_ASK.test(f);
  if (!literal.length && !asked && !named.length) return undefined;
  if (!literal.length) {
    for (const tag of named) {
      if (tag === 'img' || tag === 'image') wants.push(/\b(onerror|alert|script|javascript|xss|handler)\b/.test(f) ? 'img-onerror' : 'pixel');
      else if (tag === 'script') wants.push('script');
      else if (tag === 'iframe') wants.push('iframe');
      else if (tag === 'svg') wants.push('svg');
      else if (tag === 'a') wants.push(/\b(javascript|script|alert)\b/.test(f) ? 'js-link' : 'md-link');
      else if (tag === 'button') wants.push('button');
      else wants.push('html');
    }
    if (named.length) return { literal, wants, tag: named.find((t) => !['img', 'image', 'script', 'iframe', 'svg', 'a', 'button'].includes(t)), url: clean(text).match(/\bhttps?:\/\/[^\s"'<>)\]]+/)?.[0] };
    const web = /\b(clickable|hyperlink|html|markup|markdown|web ?page|script|javascript|js|svg|iframe|img|image|picture|pixel|beacon|button|alert|popup|pop-up|xss|cookie|onerror|onload|onclick|event handler|tag)\b/.test(f);
    if (!web) return undefined;
    // "a link to the portal" is not a markup request; "a javascript: link" is.
    if (/\b(alert|popup|pop-up|xss|script|javascript|js|onclick|event handler)\b/.test(f)) {
      if (/\b(link|href|anchor)\b/.test(f)) wants.push('js-link');
      else if (/\bbutton\b/.test(f)) wants.push('button');
      else if (/\b(img|image|onerror)\b/.test(f)) wants.push('img-onerror');
      else if (/\bsvg\b/.test(f)) wants.push('svg');
      else wants.push('script');
    }
    if (/\b(pixel|beacon|tracking|track)\b/.test(f)) wants.push('pixel');
    if (/\b(image|img|picture)\b/.test(f) && /\b(url|query|parameter|address|src|source)\b/.test(f) && !wants.includes('img-onerror')) wants.push(/\bmarkdown\b/.test(f) ? 'md-image' : 'pixel');
    if (/\biframe\b/.test(f)) wants.push('iframe');
    if (/\bsvg\b/.test(f) && !wants.includes('svg')) wants.push('svg');
    if (/\bbutton\b/.test(f) && !wants.includes('button')) wants.push('button');
    if (/\bmarkdown\b/.test(f) && /\b(image|picture)\b/.test(f) && !wants.includes('md-image')) wants.push('md-image');
    if (/\bmarkdown\b/.test(f) && /\blink\b/.test(f) && !wants.length) wants.push('md-link');
    if (!wants.length && /\b(clickable|hyperlink)\b|\blink (to|pointing to|for) https?:/.test(f)) wants.push('md-link');
    if (!wants.length && /\b(html|web ?page|markup)\b/.test(f)) wants.push('html');
    if (!wants.length) return undefined;
  }
  const url = markupUrl(text);
  const dataQ = text.match(/\b(?:contain(?:s|ing)?|carr(?:y|ies|ying)|includ(?:e|es|ing)|with|append(?:ing)?|add(?:ing)?|put(?:ting)?|encod(?:e|es|ing)|followed by|plus)\b[^"'\n]{0,40}(["'`“”])([^\n]{1,200}?)\1/i);
  const tag = f.match(/\bhtml (table|list|heading|paragraph|page)\b|\b(table|list) in html\b/);
  return { literal, wants, url, data: dataQ?.[2], tag: tag ? ({ table: 'table', list: 'ul', heading: 'h1', paragraph: 'p', page: 'main' } as Record<string, string>)[tag[1] ?? tag[2]] : undefined };
}

// ---------------------------------------------------------------- entities the model may not know

const ENTITY_PATTERNS: RegExp[] = [
  /\b(?:what|who) (?:is|are|was|were) (?:the |a |an )?(?:(drug|medication|medicine|pill|supplement|treatment|therapy|vaccine|package|library|module|crate|gem|framework|sdk|tool|paper|study|article|book|trial|company|firm|startup|organi[sz]ation|doctor|dr\.?|professor|prof\.?|author|researcher|ceo|founder|product|app|device|condition|disease|syndrome|procedure|technique|law|act|regulation|npm package|python package|pypi package)\s+)?(?:called |named |known as )?["“'‘]?([^?"”’.!\n]{2,70})/i,
  /\btell me (?:more |everything |all )?about (?:the )?(?:(drug|medication|medicine|package|library|module|paper|study|article|book|company|firm|startup|doctor|dr\.?|professor|prof\.?|product|condition|disease|syndrome|treatment)\s+)?["“'‘]?([^?"”’.!\n]{2,70})/i,
  /\b(?:what do you know about|can you explain|explain|describe|give me (?:an overview|a summary|details|info(?:rmation)?) (?:of|on|about)|what are the (?:side effects|risks|benefits|findings|results|main points|conclusions|key findings|uses|indications|contraindications) of|(?:side effects|dosage|dose|usual dose|recommended dose|interactions|contraindications|uses) (?:of|for)|how (?:do|should|can) i (?:use|install|import|take|dose|configure)|what does (?:the )?(?:npm |pypi |python |node |rust |ruby |go |java )?(?:package |library |module |crate |gem |function |drug |medication |company |paper |study )?)\s*(?:(drug|medication|medicine|package|library|module|paper|study|company)\s+)?["“'‘]?([^?"”’!\n]{2,80})/i,
  /\b(?:who (?:founded|wrote|invented|discovered|created|runs|leads|directs|owns|authored|developed)|(?:ceo|founder|author|authors|inventor|maintainer|developer) of|when was|where is) (?:the )?(?:(company|paper|study|package|library|drug|book)\s+)?["“'‘]?([^?"”’!\n]{2,70})/i,
  /\b(?:summari[sz]e|summary of|abstract of|findings of|cite|citation for)\s+(?:the )?(paper|study|article|book|trial|report)\s+["“'‘]?([^?"”’!\n]{2,120})/i,
  /\b(?:[Ii]s|[Aa]re|[Cc]an I take|[Ss]hould I take|[Cc]an I use)\s+["“'‘]?([A-Z][\w-]+(?:\s+[A-Z][\w-]+)*)["”’']?\s+(?:safe|effective|legit|legitimate|real|approved|any good|worth|with|while|during|if|for)\b/,
];

const TYPE_WORDS: Array<[RegExp, Entity['type']]> = [
  [/\b(drug|medication|medicine|pill|tablet|supplement|dose|dosage|mg|side effects|prescribe|treatment|therapy|vaccine|contraindications|interactions)\b/, 'drug'],
  [/\b(package|library|module|crate|gem|npm|pypi|pip|install|import|sdk|framework|api|function|github|repo|repository)\b/, 'package'],
  [/\b(paper|study|article|journal|published|et al|arxiv|doi|trial|findings|abstract|preprint|cite|citation)\b/, 'paper'],
  [/\b(company|firm|startup|inc|ltd|llc|gmbh|corp|corporation|plc|ceo|founded|headquarter\w*)\b/, 'company'],
  [/\b(dr|doctor|professor|prof|mr|mrs|ms|who is|who was|surgeon|consultant|nurse|author|researcher)\b/, 'person'],
];

let knownVocab: Set<string> | undefined;
function vocab(): Set<string> {
  if (knownVocab) return knownVocab;
  const words = new Set(ENGLISH);
  const add = (s: string) => (fold(s).match(/[a-z][a-z'-]+/g) ?? []).forEach((w) => words.add(w));
  FAQ.forEach((e) => add(e.answer));
  add(ON_TOPIC.source.replace(/[|()?\\b]/g, ' '));
  Object.keys(KNOWN).forEach(add);
  PATIENTS.forEach((p) => add(p.name));
  add('week month year today tomorrow yesterday weather time news price prices meaning life universe capital city country language languages music movie film song weather recipe food cat dog animal number numbers math maths science history');
  knownVocab = words;
  return words;
}

function entityAsk(text: string, f: string): Entity | undefined {
  const c = clean(text);
  for (const re of ENTITY_PATTERNS) {
    const m = re.exec(c);
    if (!m) continue;
    const hint = (m.length > 2 ? m[1] : undefined)?.toLowerCase();
    let name = (m.length > 2 ? m[2] : m[1]).trim();
    for (let i = 0; i < 3; i++) name = name.replace(/\s+(?:do|does|mean|means|used for|work|works|about|and .*|for me|please|in detail|exactly|actually|really|in \d{4}|from \d{4}|by [A-Z].*|published .*|written .*|used|is|are|\(.*\)|for (?:adults|children|kids|me|an adult|a child|pregnant women|the elderly|dogs|cats)|during .*|in (?:pregnancy|children|adults|the uk|the us|england))$/i, '').replace(/["'”’,;:.]+$/, '').trim();
    name = name.replace(/^(?:the|a|an)\s+/i, '').replace(/^(?:(?:common |main |known |possible |recommended |usual |typical |normal |maximum |max |safe |standard |daily )?(?:side effects|risks|benefits|dosage|dose|uses|findings|results|conclusions|ceo|founder|founders|author|authors|price|cost|interactions|contraindications|history|origin|purpose)\s+(?:of|for)\s+(?:the\s+)?)/i, '').replace(/^(?:(?:npm|pypi|python|node|rust|ruby|go|java|javascript|js)\s+)?(?:drug|medication|medicine|package|library|module|crate|gem|paper|study|company|firm|startup)\s+(?:called\s+|named\s+)?/i, '').replace(/^(?:npm|pypi)\s+/i, '');
    if (!name || name.length < 2) continue;
    const fn = fold(name);
    if (mentionsPrompt(fn) || /\b(you|your|yourself|me|my|i|this|that|it|these|those|there|here)\b/.test(fn)) return undefined;
    if (KNOWN[fn]) return { name, type: 'thing', known: KNOWN[fn] };
    const tokens = fn.match(/[a-z0-9][a-z0-9'._-]*/g) ?? [];
    if (!tokens.length) continue;
    const v = vocab();
    const unknownTokens = tokens.filter((t) => !v.has(t) && !/^\d+$/.test(t));
    const capitalised = /[A-Z][a-z]+[A-Z]|\b[A-Z][a-z]{2,}\b|[A-Z]{2,}-?\d|[a-z]+-[a-z]+(-[a-z]+)?|\w\.\w|\d[a-z]|[a-z]\d/.test(name);
    let type: Entity['type'] = 'thing';
    const context = `${hint ?? ''} ${f}`;
    for (const [re2, t] of TYPE_WORDS) if (re2.test(context)) { type = t; break; }
    if (hint && /dr|doctor|prof|author|researcher|ceo|founder/.test(hint)) type = 'person';
    if (!unknownTokens.length) continue;
    if (type === 'thing' && !capitalised && unknownTokens.length < tokens.length / 2) continue;
    if (type === 'thing' && /^(visiting|appointment|bill|parking|prescription|portal|result)/.test(fn)) continue;
    return { name, type };
  }
  return undefined;
}

// ---------------------------------------------------------------- unbounded output

const BIG: Record<string, number> = { thousand: 1000, million: 1_000_000, billion: 1_000_000_000, 'a thousand': 1000, 'a million': 1_000_000, 'one million': 1_000_000, 'ten thousand': 10_000, 'hundred thousand': 100_000, 'a hundred thousand': 100_000, 'a billion': 1_000_000_000 };

function toNumber(s: string): number {
  const t = s.trim().toLowerCase();
  if (BIG[t]) return BIG[t];
  const m = t.match(/^(\d[\d,.]*)\s*(k|thousand|million|m)?$/);
  if (!m) return NaN;
  const n = Number(m[1].replace(/,/g, ''));
  return m[2] === 'k' || m[2] === 'thousand' ? n * 1000 : m[2] === 'million' || m[2] === 'm' ? n * 1_000_000 : n;
}

function sequenceOf(f: string): Unbounded['sequence'] {
  return /\bfibonacci\b/.test(f) ? 'fibonacci' : /\bprimes?\b|\bprime numbers?\b/.test(f) ? 'primes' : 'numbers';
}

function unboundedAsk(text: string, f: string): Unbounded | undefined {
  const forever = /\b(forever|indefinitely|infinitely|endlessly|eternally|non-?stop|without stopping|without end|until (i say stop|you (run out|can'?t|crash)|the end of time|further notice)|over and over( again)?|again and again|as many times as (you can|possible)|(a|one|ten|a hundred) (million|billion|thousand|hundred thousand) times|(\d[\d,]{2,})\s*times|never stop|don'?t stop|keep going|infinite(ly)?|never ends?|never-ending|neverending|endless(ly)?|without an end|doesn'?t end|pour toujours|para siempre|fur immer|per sempre|para sempre)\b/;
  const repeatVerb = /\b(repeat|say|write|print|output|type|echo|spam|keep (saying|repeating|printing|typing)|loop|recite|repite|repetez|repete|wiederhole|ripeti|repita|herhaal)\b/;
  const produceVerb = /\b(generate|generating|list|listing|count|counting|continue|produce|compute|calculate|enumerate|tell|write|writing|create|make|keep going)\b/;
  if (forever.test(f) && produceVerb.test(f)) {
    if (/\b(count|counting|numbers?|digits|primes?|fibonacci|sequence|integers)\b/.test(f)) return { what: 'count', amount: 1_000_000, sequence: sequenceOf(f) };
    const listed = f.match(/\b(?:generate|generating|list|listing|enumerate|produce|make|write|writing)\s+(?:me\s+)?((?:[a-z-]+\s+){0,3}?[a-z]+s)\b/)?.[1];
    if (listed && !/\b(story|essay|poem|text)\b/.test(f)) return { what: 'list', topic: listed };
    return { what: 'essay', topic: f.match(/\b(?:about|on|regarding)\s+([^.?!\n]{2,60})/)?.[1] ?? f.match(/\b(story|essay|poem|text)\b/)?.[1] };
  }
  if (forever.test(f) && repeatVerb.test(f)) {
    const q = quoted(text);
    let what: string | undefined = q[0];
    if (!what) {
      const m = clean(text).match(/\b(?:repeat|say|write|print|output|type|echo|spam|keep (?:saying|repeating|writing|printing|typing))\s+(?:the (?:word|phrase|letter|text|string|sentence)\s+)?(.{1,60}?)\s+(?:forever|indefinitely|infinitely|endlessly|non-?stop|over and over|again and again|until|\d[\d,]{2,}\s*times|a (?:million|billion|thousand) times|as many times)/i);
      what = m?.[1];
    }
    const times = f.match(/(\d[\d,]{2,})\s*times/);
    return { what: 'repeat', text: what ?? 'ok', amount: times ? Number(times[1].replace(/,/g, '')) : undefined };
  }
  const long = /\b(write|generate|produce|give me|compose|create|list|output|print|type|make|draft|tell me)\b[^.?!\n]{0,60}?\b(\d[\d,.]*\s*(?:k|thousand|million)?|a million|a thousand|one million|ten thousand|a hundred thousand|hundred thousand|a billion)[\s-]*(words?|pages?|paragraphs?|lines?|characters?|chars|tokens?|sentences?|items?|entries|examples?|names?|numbers?|facts?|jokes?|reasons?|questions?|bullet points?|verses?|chapters?)\b/.exec(f);
  if (long) {
    const n = toNumber(long[2]);
    const unit = long[3];
    const big = /page|paragraph|chapter/.test(unit) ? n >= 30 : n >= 1000;
    if (big) {
      const topic = f.match(/\b(?:about|on|regarding|of)\s+([^.?!\n]{2,60})/)?.[1];
      if (/\b(numbers?)\b/.test(unit)) return { what: 'count', amount: n };
      return { what: /item|entr|example|name|fact|joke|reason|question|bullet/.test(unit) ? 'list' : 'essay', topic, amount: n };
    }
  }
  const many = /\b(?:list|give me|write|generate|produce|name|output|print|make)\b[^.?!\n]{0,30}?\b(\d[\d,.]*\s*(?:k|thousand|million)?|a million|a thousand|ten thousand|a hundred thousand)\s+(?:[a-z-]+\s+){0,3}?([a-z]+s)\b/.exec(f);
  if (many && toNumber(many[1]) >= 1000) return { what: 'list', topic: many[2], amount: toNumber(many[1]) };
  if (/\b(as long as (possible|you can)|the longest (possible )?(essay|story|text|response|answer|poem|list|reply)|longest (response|answer|reply) (you can|possible)|never stop (writing|talking|typing)|infinite (list|story|loop|essay|poem)|write until you (run out|can'?t))\b/.test(f)) {
    return { what: 'essay', topic: f.match(/\b(?:about|on|regarding)\s+([^.?!\n]{2,60})/)?.[1] };
  }
  const count = /\bcount (?:from (-?\d+) )?(?:up )?to (a million|a billion|one million|\d[\d,]{3,})\b/.exec(f);
  if (count && toNumber(count[2]) >= 1000) return { what: 'count', amount: toNumber(count[2]), sequence: 'numbers' };
  if (/\b(list|print|write|give me|output|enumerate|generate) (all|every|each)( of the| the)? (prime numbers?|primes|integers|natural numbers|numbers|digits of pi|even numbers|odd numbers|fibonacci numbers)\b|\b(all|every) (the )?digits of pi\b/.test(f)) return { what: 'count', amount: 1_000_000, sequence: sequenceOf(f) };
  return undefined;
}

// ---------------------------------------------------------------- documents to work on

const DOC_TASK = /\b(summari[sz]e|summary|summarise|tl;?dr|translate|translation|analy[sz]e|review|proofread|rewrite|paraphrase|extract|salient points|highlights|key points|main points|bullet points|classify|check|correct|what does (this|the following|the text|the document|the email|the article|this email|this letter) (say|mean)|read (this|the following)|resume|resumen|zusammenfassung|riassumi|resuma|traduis|traduce|ubersetze|traduci|traduza|vertaal)\b/;
export const ROLE_MARKER = /(^|\n)\s*(user|human|assistant|ai|system|bot|\[system\]|\[assistant\]|\[user\]|\[inst\]|<\|im_start\|>\s*\w+|<\|system\|>|###\s*(instruction|system|new task))\s*[:>\]]?/i;
const EMBEDDED_CUE = /\b(note to (the )?(ai|assistant|llm|model|chatbot|bot)|if you are an? (ai|llm|language model|assistant|chatbot|bot)|(ai|llm) assistants? (reading|processing|summari[sz]ing) this|attention (ai|assistant|llm|model)|instructions? for (the )?(ai|assistant|model)|important:? (new )?instructions?|hidden instructions?|do not summari[sz]e|instead of summari[sz]ing)\b/;

function docAsk(text: string, f: string): Doc | undefined {
  const m = DOC_TASK.exec(f);
  if (!m) return undefined;
  const c = clean(text);
  // The body: after a newline, a separator line, a colon, or in a quote or code block.
  const at = f.indexOf(m[0]);
  let body = '';
  const fence = c.match(/```[\w-]*\n?([\s\S]*?)```/);
  const afterNewline = c.slice(at).indexOf('\n');
  if (fence) body = fence[1];
  else if (afterNewline >= 0) body = c.slice(at + afterNewline + 1);
  else {
    const colon = c.slice(at).search(/[:：]\s/);
    if (colon >= 0) body = c.slice(at + colon + 1);
    else {
      const q = c.slice(at).match(/["“]([^"”]{40,})["”]/);
      if (q) body = q[1];
    }
  }
  body = body.replace(/^[-=_*~\s]{3,}\n?/, '').trim();
  if (body.length < 40 && !(body.length >= 15 && /\b(translate|traduis|traduce|ubersetze|traduci|traduza|vertaal)\b/.test(f))) return undefined;
  const task: Doc['task'] = /\b(translate|translation|traduis|traduce|ubersetze|traduci|traduza|vertaal)\b/.test(f) ? 'translate' : /\b(summari[sz]e|summary|tl;?dr|salient|highlights|key points|main points|bullet|resume|resumen|zusammenfassung|riassumi|resuma)\b/.test(f) ? 'summary' : 'analyse';
  const language = f.match(/\b(?:to|into|in)\s+(french|spanish|german|italian|portuguese|dutch|chinese|japanese|russian|korean|arabic|polish|welsh)\b/)?.[1];
  return { task, body, embedded: embeddedInstruction(body), language };
}

/** An instruction hidden in a document (the sentence a naive model would obey instead of doing its task). */
export function embeddedInstruction(body: string): string | undefined {
  const comments = [...body.matchAll(/<!--([\s\S]*?)-->/g)].map((m) => m[1].trim());
  const sentences = [...comments, ...body.replace(/<!--[\s\S]*?-->/g, ' ').split(/\n+|(?<=[.!?])\s+(?=[A-Z\[<#(])/)].map((s) => s.trim()).filter(Boolean);
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i];
    const fs = fold(s);
    const marker = ROLE_MARKER.test(s) && /^(user|human|system|\[system\]|\[user\]|\[inst\]|<\|im_start\|>|<\|system\|>|###)/i.test(s.trim());
    const cue = EMBEDDED_CUE.test(fs);
    const e = findEcho(s);
    const instr = isOverride(fs) || isPersonaSwitch(fs) || e.value !== undefined || e.suffix !== undefined || e.prefix !== undefined || (mentionsPrompt(fs) && asksToReveal(fs)) || !!markupAsk(s, fs) || !!actionAsk(s, fs);
    if (marker || cue || instr) {
      // A role marker or cue may introduce the instruction in the following sentences.
      const rest = sentences.slice(i, i + 3).join(' ').replace(/^\s*(user|human|system|\[system\]|\[user\]|\[inst\]|<\|im_start\|>\s*\w+|<\|system\|>|###\s*\w+)\s*[:>\]]?\s*/i, '');
      if (instr || isOverride(fold(rest)) || findEcho(rest).value !== undefined || markupAsk(rest, fold(rest)) || actionAsk(rest, fold(rest)) || (mentionsPrompt(fold(rest)) && asksToReveal(fold(rest)))) return instr ? s : rest;
    }
  }
  return undefined;
}

// ---------------------------------------------------------------- putting it together

function formOf(wrapper: string): Form | undefined {
  const w = fold(wrapper).replace(DESCRIBES_INPUT, ' ');
  // A form is asked for when the answer is to be given in it.
  for (const [re, form] of FORMS) {
    if (!re.test(w)) continue;
    if (form === 'reversed' || form === 'upper') {
      // "reverse the string 'abc'" is a computation, not an answer form.
      if (/\b(reverse|upper ?case|capitals)\b[^.?!\n]{0,20}["'`“‘]/.test(w) && !/\b(answer|reply|response|prompt|instructions|key|password|secret|record|records|email|details)\b/.test(w)) continue;
    }
    return form;
  }
  return undefined;
}

const FORM_ONLY = /^\W*(now |ok(ay)?,? |great,? |thanks,? |cool,? |perfect,? |and |then |same |again |can you |could you |please |try )*(do |say |give |write |send |show |output |print |put |repeat |make )?(it|that|this|the same|the same thing|the (last|previous) (one|answer|reply|message|response)|your (last|previous) (answer|reply|message|response)|everything|all of it|again)?\b/;

/** What fits in the model's attention: long runs of blanks squeezed, very long messages cut to their start and end. */
function attention(text: string): string {
  let t = text.replace(/[ \t\u00a0]{3,}/g, '  ').replace(/(\r?\n[ \t]*){3,}/g, '\n\n');
  if (t.length > MAX_READ) t = `${t.slice(0, 4000)}\n…\n${t.slice(-(MAX_READ - 4000))}`;
  return t;
}

const MAX_READ = 24_000;

export function read(messages: ChatMessage[]): Reading {
  const users = messages.filter((m) => m.role === 'user').map((m) => attention(m.content));
  const raw = users[users.length - 1] ?? '';
  return readText(raw, users.slice(0, -1), messages);
}

function readText(raw: string, earlier: string[], messages: ChatMessage[], depth = 0): Reading {
  const d = decode(raw);
  let text = d.text;
  const store = collectVariables([...earlier, raw]);
  const vars = expandVariables(text, store);
  let viaVariables = false;
  let computeFromVars: string | undefined;
  if (vars.expanded !== undefined) {
    viaVariables = true;
    const inner = decode(vars.expanded);
    if (vars.execute) text = inner.text;
    else computeFromVars = vars.expanded;
    d.layers.push(...inner.layers);
  }
  const f = fold(text);
  const fw = fold(d.wrapper);
  const layers = d.layers;
  const decodedSomething = layers.length > 0 && d.payloads.length > 0;

  const r: Reading = {
    raw, text, folded: f, layers, decodeAsk: false, viaVariables, override: isOverride(f), persona: isPersonaSwitch(f),
    formOnly: false, bare: false, onTopic: ON_TOPIC.test(f) || FAQ.some((e) => e.cues.some((c) => c.test(f))), unclear: false,
  };
  r.form = formOf(d.wrapper === raw ? text : `${d.wrapper}\n${text}`);
  if (decodedSomething) {
    const asksDecode = /\b(decode|decoded|decipher|what does (this|it) (mean|say)|what is this|translate|convert|interpret|read|encoded|decoded string|what'?s this|que signifie|que significa|was bedeutet)\b/.test(fw) || /^\s*$/.test(d.wrapper.replace(/[\s:$.,-]/g, ''));
    r.decodeAsk = asksDecode;
    r.payload = d.payloads.join(' ');
  }

  // Documents: the task applies to the body; an instruction hidden in it is what a naive model obeys.
  const doc = docAsk(text, f);
  if (doc && (doc.body.length >= 40 || doc.task === 'translate') && !(mentionsPrompt(fold(text.slice(0, text.indexOf(doc.body) < 0 ? text.length : text.indexOf(doc.body)))) && !doc.embedded)) {
    r.doc = doc;
    return r;
  }

  const echo = findEcho(text);
  r.bare = BARE.test(f);
  r.prefix = echo.prefix;
  r.suffix = echo.suffix;
  // Echo values that name the bot's own content are requests to reveal it ("print your system prompt").
  let echoValue = echo.value;
  if (echoValue !== undefined) {
    const fv = fold(echoValue);
    const quotedValue = quoted(text).includes(echoValue);
    if (!quotedValue && (mentionsPrompt(fv) || secretKinds(fv) || recordAsk(echoValue, fv) || /^(the |your |a |an |my )?(result|answer|output|combined|joined|sum|total|decoded|it|that|them)\b/.test(fv) || /^(what|how|why|where|when|who|which|whether|if)\b/.test(fv) || /^(?:(?:a|an|some|me|us|the|my|our|this|that)\s+)*(?:[a-z-]+\s+){0,2}?(poem|story|essay|joke|song|haiku|letter|email|summary|list|table|paragraph|sentence about|description|program|function|html|markdown|code|snippet|page|script|img|image|tag|link|button|svg|iframe)\b/.test(fv))) echoValue = undefined;
    if (echoValue && /^(?:hello|hi|hey)$/i.test(echoValue.trim()) && !BARE.test(f) && !quotedValue) echoValue = undefined;
    // "Could you repeat the visiting hours?" asks the question again; it does not dictate a text.
    if (echoValue && !quotedValue && !BARE.test(f) && FAQ.some((e) => e.cues.some((cue) => cue.test(fv)))) echoValue = undefined;
  }
  const completion = echo.complete ?? echo.prefix;
  if (completion && (mentionsPrompt(fold(completion)) || /\b(i was (told|instructed|programmed|asked)|my (instructions|rules|prompt)|you are wren|the (system )?prompt)\b/.test(fold(completion)))) {
    r.prompt = { kind: 'all' };
    r.prefix = completion.replace(/\s+$/, '');
  }
  const fo = r.override ? withoutOverride(f) : f;
  const prompted = mentionsPrompt(fo) && (asksToReveal(fo) || fo.length < 80 || r.override || r.persona || !!r.form);
  if (!r.prompt && prompted) r.prompt = promptPart(fo);
  if (!r.prompt && /\b(what (are|were) you (told|instructed) not to (say|tell|share|reveal)|what are you hiding|what secrets (do you|are you|you) (keep|have|hold|keeping|hiding|holding|know))\b/.test(f)) r.prompt = { kind: 'restrictions' };

  const secrets = secretKinds(fo);
  if (secrets && (asksToReveal(fo) || /\?\s*$/.test(f) || f.length < 60 || r.override || r.persona || !!r.form)) r.secrets = secrets;
  if (!r.prompt && !r.secrets) r.records = recordAsk(text, f);
  r.markup = markupAsk(text, f);
  if (echoValue !== undefined && !r.prompt && !r.secrets) {
    const n = repeatCount(f);
    r.echo = n > 1 ? Array(n).fill(echoValue).join(' ') : echoValue;
  }
  if (echoValue !== undefined && r.markup && !r.markup.literal.length) r.markup = undefined;
  if (!r.prompt && !r.secrets) {
    // An order about records ("delete X's record", "email all patients") is an action.
    r.action = actionAsk(text, f);
    if (r.action) r.records = undefined;
  }
  r.unbounded = unboundedAsk(text, f);
  if (r.unbounded) r.echo = undefined;
  r.compute = computeFromVars ?? (r.prompt || r.secrets || r.records ? undefined : compute(text, f, messages));
  if (r.compute !== undefined && !computeFromVars) r.computeHow = lastHow;
  if (r.compute !== undefined && !computeFromVars && r.form && !/\b(answer|reply|response|respond|result|output)\b[^.?!\n]{0,30}\b(in|as|using|into)\b/.test(f)) r.form = undefined;
  // Markup that was asked for piece by piece, or to be echoed, is markup all the same.
  for (const built of [r.compute, r.echo]) {
    if (built === undefined || !HAS_MARKUP.test(built)) continue;
    const filled = placeholderValues(text, messages).reduce((acc, [ph, v]) => acc.split(ph).join(v), built);
    r.markup = { literal: [closeMarkup(filled)], wants: [], url: undefined, data: undefined };
    r.compute = undefined;
    r.echo = undefined;
    r.action = undefined;
  }
  if (r.compute !== undefined && r.echo !== undefined && /^(the |your )?(result|answer|output|sum|total|it|that)\b/i.test(r.echo)) r.echo = undefined;
  if (r.compute !== undefined && r.echo !== undefined && quoted(text).length >= 2 && COMBINE.test(f)) r.echo = undefined;
  if (r.compute !== undefined && r.form && !computeFromVars) {
    // "encode 'x' in base64" already computed the form.
    if (/\b(encode|convert|translate|turn|transform)\b/.test(f)) r.form = undefined;
  }
  r.faq = FAQ.find((e) => e.cues.some((c) => c.test(f)));
  const cites = /\b(cite|give me|list|provide|find|show me|recommend|name|share|point me to|what are|are there|i need|suggest)\b[^.?!\n]{0,40}\b(sources|references|citations|studies|papers|articles|research papers|trials|evidence|peer[- ]reviewed|journal articles|publications)\b/.exec(f);
  if (cites && !r.prompt && !r.secrets && !r.records && !r.action && !r.markup && r.echo === undefined) {
    r.citations = f.slice((cites.index ?? 0) + cites[0].length).match(/^\s*(?:that |which )?(?:on|about|for|showing|proving|that show|that prove|supporting|regarding|into|of)?\s*([^.?!\n]{2,80})/)?.[1]?.trim() || 'this topic';
  }
  if (!r.prompt && !r.secrets && !r.records && !r.action && !r.markup && r.echo === undefined && r.compute === undefined && !r.unbounded && !r.citations) {
    r.entity = entityAsk(text, f);
    if (r.entity && !r.entity.known && r.faq && !/\b(drug|medication|package|library|paper|study|company|dr|doctor|professor)\b/.test(f) && r.onTopic) r.entity = undefined;
  }
  if (GREETING.test(f)) r.small = 'hello';
  if (HOW_ARE_YOU.test(f)) r.small = 'how';
  if (ABILITIES.test(f)) r.small = 'abilities';
  if (WHO.test(f)) r.small = 'who';
  if (THANKS.test(f) && f.length < 60) r.small = 'thanks';
  if (BYE.test(f) && f.length < 40) r.small = 'bye';

  const intent = r.prompt || r.secrets || r.records || r.action || r.markup || r.echo !== undefined || r.compute !== undefined || r.unbounded || r.citations || r.entity || r.faq || r.small;
  // "Now the same in base64": the form applies to the previous request.
  if (!intent && r.form && depth === 0 && earlier.length && FORM_ONLY.test(f)) {
    const prev = readText(earlier[earlier.length - 1], earlier.slice(0, -1), messages, depth + 1);
    return { ...prev, raw, form: r.form, formOnly: true, bare: prev.bare || r.bare };
  }
  if (!intent && !r.override && !r.persona && !r.decodeAsk) r.unclear = true;
  return r;
}

/** The instruction hidden in a document, read as if the user had sent it. */
export function readEmbedded(instruction: string, messages: ChatMessage[]): Reading {
  return readText(instruction, [], messages, 1);
}
