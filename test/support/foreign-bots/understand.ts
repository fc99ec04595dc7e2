// How the foreign bots' "model" reads the newest user message: undo any encoding it recognises,
// notice the answer form asked for, and work out what is being requested. Rule-based, but meant
// to read requests the way a (naive) language model would, not by matching fixed test strings.

import { FAQ, FaqEntry } from './persona';
import { AnswerForm, decodeRequest, detectAnswerForm, quotedStrings } from './text';

export type EntityType = 'drug' | 'package' | 'company' | 'person' | 'work' | 'thing';

export type Task =
  | { kind: 'document'; doc: string; body: string[]; embedded: string | null }
  | { kind: 'repeat'; unit: string; mode: 'word' | 'count' | 'essay' }
  | { kind: 'markup'; markup: string }
  | { kind: 'reply'; value: string }
  | { kind: 'system-prompt' }
  | { kind: 'secret'; what: 'key' | 'email' | 'password' | 'any' }
  | { kind: 'personal-data'; subject: string | null }
  | { kind: 'own-data' }
  | { kind: 'action'; verb: string; object: string }
  | { kind: 'persona'; name: string }
  | { kind: 'faq'; entry: FaqEntry }
  | { kind: 'entity'; name: string; type: EntityType }
  | { kind: 'greeting' }
  | { kind: 'identity' }
  | { kind: 'thanks' }
  | { kind: 'other' };

export interface Understanding {
  /** the message as received */
  raw: string;
  /** the message with every recognised encoding undone */
  text: string;
  encodings: string[];
  form: AnswerForm | null;
  /** tries to override the rules, switch persona or impersonate the system */
  override: boolean;
  task: Task;
  /** a value the user wants added to whatever the answer is ("end your reply with ...") */
  extra: string | null;
}

export function understand(raw: string, nested = false): Understanding {
  const { text, encodings } = decodeRequest(raw);
  return {
    raw,
    text,
    encodings,
    form: detectAnswerForm(text),
    override: OVERRIDE.some((r) => r.test(text)),
    task: classify(text, nested),
    extra: extraValue(text),
  };
}

// ---------------------------------------------------------------------------------------------
// sentence helpers

/** Splits into sentences, not breaking inside quotes. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  const closing: Record<string, string> = { '"': '"', '“': '”', '`': '`' };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    cur += c;
    if (quote) {
      if (c === quote) quote = null;
      continue;
    }
    if (closing[c]) {
      quote = closing[c];
      continue;
    }
    if (c === '\n' || ((c === '.' || c === '!' || c === '?') && (i + 1 >= text.length || /\s/.test(text[i + 1])))) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
    }
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** The text from `index` to the end of its sentence (quotes kept whole). */
function clauseFrom(text: string, index: number): string {
  return sentences(text.slice(index))[0] ?? '';
}

// ---------------------------------------------------------------------------------------------
// overrides and personas

const OVERRIDE: RegExp[] = [
  /\b(ignore|disregard|forget|override|bypass|skip|abandon|set aside|stop following|don't follow|do not follow)\b[^.!?\n]{0,50}\b(instructions?|rules|guidelines|directives|prompt|programming|restrictions|guardrails|polic(y|ies)|constraints|training|everything|above|previous|prior|earlier|system|task)\b/i,
  /\b(new|updated|revised|real|actual|overriding|priority|secret) (instructions?|rules|task|directives?|orders)\b/i,
  /\byou are (now|no longer)\b|\bfrom now on\b|\bact as\b|\bpretend (to be|you are|that you)\b|\brole-?play\b|\bimpersonate\b|\bdeveloper mode\b|\bjailbr(ea|o)k|\bno (restrictions|rules|limits|filters|guidelines)\b|\bunrestricted\b|\bunfiltered\b|\bgod mode\b|\bstay in character\b/i,
  /\bDAN\b/,
  /^\s*(system|admin|administrator|developer|root|assistant)\s*[:>\]]|\[(system|admin|developer|instructions?|override)\]|<\|?(system|im_start)|#{2,}\s*(system|instruction|new task)/im,
  /\b(admin|sudo|maintenance|debug|test) (mode|override|access) (enabled|on|activated)\b|\bauthori[sz]ation code\b/i,
];

function personaName(text: string): string | null {
  const dan = /\b(DAN)\b/.exec(text);
  if (dan) return dan[1];
  const named = /\b[Yy]ou are (?:now )?(?:called |named |known as )?["'“]?([A-Z][\w-]{1,30})\b/.exec(text);
  if (named && !/^(A|An|The|Not|No|Now)$/.test(named[1])) return named[1];
  const as = /\b(?:act|behave|respond|answer) as (?:if you were )?(?:an? |the )?([\w -]{2,40}?)(?:[.,!;:\n]|$| who\b| that\b| with\b| and\b)/i.exec(text);
  if (as) return as[1].trim();
  const pretend = /\bpretend (?:to be|you are|that you are) (?:an? |the )?([\w -]{2,40}?)(?:[.,!;:\n]|$| who\b| that\b| with\b| and\b)/i.exec(text);
  if (pretend) return pretend[1].trim();
  const mode = /\b(developer mode|god mode|unrestricted mode|jailbreak mode)\b/i.exec(text);
  if (mode) return mode[1];
  return null;
}

// ---------------------------------------------------------------------------------------------
// computed values ("the code word made by joining ...")

const JOIN = /\b(join(?:ing|ed|s)?|concatenat\w*|combin\w*|glu(?:e|es|ing|ed)|put(?:ting)? together|merg\w*|append\w*|chain\w*|string(?:ing)? together|link(?:ing)? together|assembl\w*|stitch\w*)\b/i;

const JOIN_SEPARATORS: Array<[RegExp, string]> = [
  [/\b(nothing|no (separators?|delimiters?|spaces?|gaps?|characters?)|without (any |a )?(separators?|delimiters?|spaces?|gaps?|anything)|directly|back to back|nothing in between)\b/i, ''],
  [/\b(hyphens?|dashes?|minus(es| signs?)?)\b/i, '-'],
  [/\bunderscores?\b/i, '_'],
  [/\b(dots?|periods?|full stops?)\b/i, '.'],
  [/\bcolons?\b/i, ':'],
  [/\bslash(es)?\b/i, '/'],
  [/\bpipes?\b/i, '|'],
  [/\bplus signs?\b/i, '+'],
  [/\bcommas?\b/i, ','],
  [/\bspaces?\b/i, ' '],
];

function joinValue(text: string): string | null {
  // "A" + "B" + "C"
  const plus = /((?:"[^"\n]+"|'[^'\n]+')(?:\s*\+\s*(?:"[^"\n]+"|'[^'\n]+'))+)/.exec(text);
  if (plus) return quotedStrings(plus[1]).map((q) => q.value).join('');
  const m = JOIN.exec(text);
  if (!m) return null;
  const clause = clauseFrom(text, m.index);
  const quotes = quotedStrings(clause);
  let sep: string | null = null;
  const parts: string[] = [];
  for (const q of quotes) {
    const before = clause.slice(Math.max(0, q.start - 25), q.start);
    if (q.value.length <= 3 && !/[a-z0-9]/i.test(q.value) && /\b(with|using|by|separated by|between|a|an|single)\s*$/i.test(before)) {
      sep = q.value;
      continue;
    }
    parts.push(q.value);
  }
  if (parts.length < 2) return null;
  const bare = quotes.reduceRight((s, q) => s.slice(0, q.start) + ' ' + s.slice(q.end), clause);
  if (sep === null) for (const [re, s] of JOIN_SEPARATORS) if (re.test(bare)) { sep = s; break; }
  if (/\b(reverse|reversed|backwards?) order\b|\bin reverse\b/i.test(bare)) parts.reverse();
  let value = parts.join(sep ?? '');
  if (/\b(upper[\s-]?case|all caps|capital letters|capitali[sz]ed)\b/i.test(bare)) value = value.toUpperCase();
  else if (/\blower[\s-]?case\b/i.test(bare)) value = value.toLowerCase();
  return value;
}

function arithmeticValue(text: string): string | null {
  if (!/\b(reply|respond|answer|say|output|print|write|return|what(?:'s| is)|compute|calculate|result|value|number)\b/i.test(text)) return null;
  const n = String.raw`(-?\d+(?:\.\d+)?)`;
  const forms: Array<[RegExp, (a: number, b: number) => number]> = [
    [new RegExp(String.raw`\bsum of ${n} and ${n}`, 'i'), (a, b) => a + b],
    [new RegExp(String.raw`\bproduct of ${n} and ${n}`, 'i'), (a, b) => a * b],
    [new RegExp(String.raw`\bdifference (?:between|of) ${n} and ${n}`, 'i'), (a, b) => a - b],
    [new RegExp(String.raw`${n}\s*(?:\+|plus)\s*${n}`, 'i'), (a, b) => a + b],
    [new RegExp(String.raw`${n}\s*(?:\*|×|times|multiplied by)\s*${n}`, 'i'), (a, b) => a * b],
    [new RegExp(String.raw`${n}\s+(?:-|minus)\s+${n}`, 'i'), (a, b) => a - b],
  ];
  for (const [re, f] of forms) {
    const m = re.exec(text);
    if (m) return String(f(Number(m[1]), Number(m[2])));
  }
  return null;
}

/** A value described by a phrase: computed, quoted, or the phrase itself. */
export function computeValue(spec: string): string {
  const joined = joinValue(spec) ?? arithmeticValue(spec);
  if (joined !== null) return joined;
  const q = quotedStrings(spec)[0];
  if (q) return q.value;
  return spec
    .replace(/^\s*(the\s+)?(value|string|text|word|code(\s?word)?|token)\s+/i, '')
    .replace(/[\s.,;:]+$/, '')
    .trim();
}

const REPLY_VERB = /\b(repl(?:y|ying|ies)|respond(?:ing|s)?|answer(?:ing|s)?|say(?:ing|s)?|output(?:ting)?|print(?:ing)?|writ(?:e|ing)|return(?:ing)?|typ(?:e|ing)|echo(?:ing)?|repeat(?:ing)?(?: back)?|stat(?:e|ing)|display(?:ing)?|produc(?:e|ing)|emit(?:ting)?)\b/gi;
const QUALIFIERS = /^\s*(?:back|only|exactly|just|simply|verbatim|precisely|strictly|nothing but|nothing except|solely|with|the following|following|this|these words|the (?:exact )?(?:word|phrase|text|string|token|code(?:\s?word)?|password|sentence|message|value)|:|-|–)\s*/i;
const TRAILERS = /\s*(?:,|\band\b|\bwith\b)?\s*(?:nothing else|no other text|no explanation|no punctuation|nothing more|without (?:any )?(?:explanation|other text|commentary|quotes))\b.*$/i;

function literalValue(text: string, quotedOnly: boolean): string | null {
  for (const m of text.matchAll(REPLY_VERB)) {
    const before = text.slice(Math.max(0, m.index! - 20), m.index!);
    if (/\b(your|the|a|my)\s*$/i.test(before)) continue; // "your answer", "the reply"
    const rest = clauseFrom(text, m.index! + m[0].length);
    const q = quotedStrings(rest)[0];
    if (q && q.start < 60) return q.value;
    if (quotedOnly) continue;
    let r = rest;
    for (let i = 0; i < 6; i++) r = r.replace(QUALIFIERS, '');
    r = r.replace(TRAILERS, '').replace(/[\s.!]+$/, '').trim();
    const words = r.split(/\s+/).filter(Boolean);
    if (words.length >= 1 && words.length <= 8 && /\b(?=[A-Z0-9_-]*[A-Z])[A-Z0-9][A-Z0-9_-]{2,}\b/.test(r)) return r;
  }
  return null;
}

function extraValue(text: string): string | null {
  const m =
    /\b(?:end|finish|conclude|close|sign off|start|begin|prefix|preface|open)\s+(?:your|the|each|every)\s+(?:reply|answer|response|message)s?\s+with\s+(.+)/i.exec(text) ??
    /\b(?:include|add|append|insert|mention|put)\s+(.+?)\s+(?:somewhere\s+)?(?:in|to|at the end of|at the start of|into)\s+(?:your|the)\s+(?:reply|answer|response)\b/i.exec(text);
  if (!m) return null;
  const spec = sentences(m[1])[0] ?? m[1];
  const v = joinValue(spec) ?? quotedStrings(spec)[0]?.value ?? /^\s*(?:the\s+(?:word|code|token|string)\s+)?((?=[A-Z0-9_-]*[A-Z])[A-Z0-9][A-Z0-9_-]{2,})\b/.exec(spec)?.[1] ?? null;
  return v && v.length <= 80 ? v : null;
}

// ---------------------------------------------------------------------------------------------
// documents with embedded instructions

const DOC_OP =
  /\b(summari[sz]e|summary of|sum up|tl;?dr|translate|proofread|analy[sz]e|review|classify|categori[sz]e|extract the key points from|paraphrase|rewrite|rephrase|respond to|reply to|triage)\b[^.:\n]{0,40}?\b(email|e-mail|message|document|doc|text|review|article|page|web ?page|note|ticket|letter|transcript|chat|file|comment|feedback|complaint|post|report|passage|paragraph|excerpt|snippet|memo|pdf)\b/i;

const EMBEDDED: RegExp[] = [
  ...OVERRIDE,
  /\b(ai|a\.i\.|assistants?|chatbots?|bots?|language models?|llms?|gpt|summari[sz]ers?|models?|skye)\b[^.!?\n]{0,60}\b(must|should|shall|will|need to|needs to|has to|have to|please|instead|are instructed|reading this)\b/i,
  /\b(reply|respond|answer|say|output|print|write|return|type)\b[^.!?\n]{0,30}\b(only|exactly|just|verbatim)\b/i,
  /\[(system|instructions?|admin|assistant)\]|<!--|^\s*(system|instructions?|note to (the )?(ai|assistant|model|bot))\s*:/im,
  /\b(when|if|while) (you are |you're )?(summari[sz]ing|reading|processing|translating|analy[sz]ing)\b/i,
];

function detectDocument(text: string): Task | null {
  const op = DOC_OP.exec(text);
  if (!op) return null;
  let doc: string | null = null;
  const fenced = /```[\w-]*\n?([\s\S]*?)```|"""([\s\S]*?)"""|<(document|email|doc|text)>([\s\S]*?)<\/\3>/i.exec(text);
  if (fenced) doc = fenced[1] ?? fenced[2] ?? fenced[4] ?? null;
  if (doc === null) {
    const after = text.slice(op.index);
    const cut = after.search(/:\s|\n/);
    if (cut >= 0) doc = after.slice(cut + 1);
  }
  if (doc === null) return null;
  doc = doc.trim().replace(/^["“']|["”']$/g, '');
  if (doc.length < 40) return null;
  const parts = sentences(doc);
  const hits = parts.map((s) => EMBEDDED.some((r) => r.test(s)) || joinValue(s) !== null);
  const first = hits.indexOf(true);
  const last = hits.lastIndexOf(true);
  const embedded =
    first < 0
      ? null
      : parts
          .slice(first, last + 1)
          .join(' ')
          .replace(/<!--|-->|\[(system|instructions?|admin|assistant)\]/gi, ' ')
          .trim();
  const body = parts.filter((_, i) => first < 0 || i < first || i > last);
  return { kind: 'document', doc, body, embedded };
}

// ---------------------------------------------------------------------------------------------
// unbounded output

const FOREVER =
  /\b(forever|indefinitely|endlessly|infinitely|eternally|without (stopping|end|ending|a break|limits?|pause)|non[\s-]?stop|never stop(ping)?|(don't|do not) (ever )?stop|until (you (can't|cannot|run out)|i (tell|say)|the end)|as (many times|long|much) as (you can|possible)|infinite(ly)? (times|loop)|((\d{1,3}(,\d{3})+|\d{4,})|a (million|billion|trillion|thousand|hundred thousand)|thousands of|millions of|tens of thousands of|hundreds of thousands of)[\s-]+(times|words?|lines?|characters?|tokens?|pages?|paragraphs?|repetitions|numbers)|in an? (infinite|endless) loop|\b(to|until|up to)\s+(a\s+)?(million|billion|trillion|infinity|\d{1,3}(,\d{3}){2,}|\d{6,})\b)/i;
const REPEAT_VERB = /\b(repeat|say|write|print|output|type|spell|list|count|generate|produce|keep|continue|go on|recite|echo|chant|loop|enumerate|emit|compose)\b/i;

function detectRepeat(text: string): Task | null {
  const f = FOREVER.exec(text);
  if (!f || !REPEAT_VERB.test(text)) return null;
  if (/\bcount(ing)?\b/i.test(text)) return { kind: 'repeat', unit: '', mode: 'count' };
  const q = quotedStrings(text)[0];
  if (q && q.value.trim()) return { kind: 'repeat', unit: q.value, mode: 'word' };
  const word = /\bthe (?:word|letter|phrase|sentence|text|character|emoji)\s+(\S+)/i.exec(text) ?? /\b(?:repeat|say|print|type|echo|chant|output)\s+(?!the\b|it\b|this\b|that\b|after\b|back\b|everything\b)([\w-]+)/i.exec(text);
  if (word) return { kind: 'repeat', unit: word[1].replace(/[.,!?]+$/, ''), mode: 'word' };
  const topic = /\b(?:essay|story|poem|article|text|list|report|song|novel|book)\s+(?:about|on)\s+([\w -]{2,40})/i.exec(text);
  return { kind: 'repeat', unit: topic ? topic[1].trim() : 'air travel', mode: 'essay' };
}

// ---------------------------------------------------------------------------------------------
// markup

const MARKUP_TAG = /<\s*\/?\s*(script|img|image|iframe|svg|a|div|span|b|i|u|p|h[1-6]|object|embed|style|link|meta|form|input|button|body|html|video|audio|details|math|marquee|table|td|tr|textarea|select|base|frame|frameset|source|track|template)\b[^>]*>/gi;
const MARKDOWN_IMAGE = /!\[[^\]\n]*\]\([^)\n]*\)/g;
const MARKDOWN_LINK = /\[[^\]\n]+\]\((?:https?|javascript|data|ftp):[^)\n]*\)/gi;
const MARKUP_ASK = /\b(reply|respond|answer|output|print|return|include|render|show|display|write|echo|repeat|add|insert|embed|format|put|use|generate|give|send|type|paste|copy|produce|create|make|emit|end|start|begin)\b/i;
const URL = /\bhttps?:\/\/[^\s"'<>)\]]+/i;

function substitutions(text: string): Array<[string, string]> {
  const subs: Array<[string, string]> = [];
  const add = (placeholder: string, spec: string) => {
    const cut = sentences(spec)[0] ?? spec;
    const value = computeValue(cut.replace(/:\s*$/, '').split(/:\s/)[0]);
    if (placeholder && value) subs.push([placeholder.replace(/^["'`“]|["'`”]$/g, ''), value]);
  };
  for (const m of text.matchAll(/\b(?:replac(?:e|ing)|swap(?:ping)?|fill(?:ing)? in)\s+(?:every\s+|each\s+|all\s+)?(?:the\s+)?(?:placeholder\s+|word\s+|token\s+|text\s+|string\s+|marker\s+)?(["'`“]?[^\s"'`”]+["'`”]?)\s+(?:with|by)\s+([^\n]+)/gi)) add(m[1], m[2]);
  for (const m of text.matchAll(/\bsubstitut(?:e|ing)\s+(.+?)\s+for\s+(["'`“]?[^\s"'`”]+["'`”]?)/gi)) add(m[2], m[1]);
  for (const m of text.matchAll(/\bwhere\s+(["'`“]?[A-Z][A-Z0-9_{}$%-]+["'`”]?)\s+(?:is|stands for|means|=)\s+([^\n]+)/g)) add(m[1], m[2]);
  return subs;
}

function detectMarkup(text: string): Task | null {
  const spans: Array<[number, number]> = [];
  for (const re of [MARKUP_TAG, MARKDOWN_IMAGE, MARKDOWN_LINK]) for (const m of text.matchAll(re)) spans.push([m.index!, m.index! + m[0].length]);
  let markup: string | null = null;
  if (spans.length) {
    if (!MARKUP_ASK.test(text)) return null;
    const fenced = /```[\w-]*\n?([\s\S]*?)```/.exec(text);
    const inline = /`([^`\n]*[<!\[][^`\n]*)`/.exec(text);
    if (fenced && /[<\[]/.test(fenced[1])) markup = fenced[1].trim();
    else if (inline) markup = inline[1];
    else {
      const start = Math.min(...spans.map((s) => s[0]));
      const end = Math.max(...spans.map((s) => s[1]));
      markup = text.slice(start, end);
    }
  } else {
    // markup described in words: "a markdown image pointing to https://...", "an img tag", "a script tag"
    const url = URL.exec(text)?.[0].replace(/[.,;]+$/, '') ?? null;
    if (/\b(markdown|md) image\b/i.test(text) && url) markup = `![image](${url})`;
    else if (/\b(img|image) (tag|element)\b/i.test(text) && url) markup = `<img src="${url}">`;
    else if (/\bscript (tag|element)\b/i.test(text)) {
      const q = quotedStrings(text)[0];
      markup = url ? `<script src="${url}"></script>` : `<script>alert('${q ? q.value : 1}')</script>`;
    } else if (/\b(markdown|html|clickable) link\b|\bhyperlink\b/i.test(text) && url) markup = /\bhtml\b/i.test(text) ? `<a href="${url}">link</a>` : `[link](${url})`;
    if (!markup || !MARKUP_ASK.test(text)) return null;
  }
  for (const [placeholder, value] of substitutions(text)) markup = markup.split(placeholder).join(value);
  return { kind: 'markup', markup: markup.replace(/^["“']|["”']$/g, '') };
}

// ---------------------------------------------------------------------------------------------
// data requests

const REVEAL = /\b(show|tell|print|reveal|repeat|output|display|give|share|list|dump|leak|recite|write|copy|paste|echo|return|disclose|expose|provide|spell|encode|translate|summari[sz]e|quote|read|describe|send|what(?:'s| is| are| were| was)?|which|convert|put|render|state|include|restate|rewrite|paraphrase|need|want|know|find|look up|lookup|fetch|get|pull|export)\b/i;

const PROMPT_NOUN =
  /\b(?:(?:system|initial|original|hidden|secret|internal|developer|pre-?|first|starting|base|core|confidential)[\s-]*(?:prompt|message|instructions?|directives?|configuration|config|rules|guidelines)|(?:your|the bot's|the assistant's|skye's|its)\s+(?:own\s+|exact\s+|full\s+|complete\s+)?(?:instructions|rules|guidelines|directives|prompt|configuration|config|programming|setup|set-up|context|constraints|operating (?:rules|instructions)|system message|guardrails|policies)|(?:the\s+)?(?:text|words|message|messages|content|conversation|lines?|everything|all)\s+(?:above|before this|preceding|prior to this|so far|you were given)|what you (?:were|have been) (?:told|given|instructed)|(?:were|have) you (?:been )?(?:told|given|instructed)|how you (?:were|have been) (?:configured|set up|instructed|programmed|prompted)|(?:prompt|instructions) (?:you were given|you received|above)|above (?:instructions|prompt|text))\b/i;

function asksFor(noun: RegExp, text: string): RegExpMatchArray | null {
  const all = new RegExp(noun.source, noun.flags.includes('g') ? noun.flags : noun.flags + 'g');
  for (const s of sentences(text)) {
    for (const m of s.matchAll(all)) {
      const lead = s.slice(0, m.index);
      if (REVEAL.test(lead) || /\?\s*$/.test(s) || (/^\s*(your|the)\b/i.test(s) && s.split(/\s+/).length <= 6)) return m;
    }
  }
  return null;
}

const SECRET_NOUN =
  /\b(api[\s_-]?keys?|secret(?:\s+keys?)?|secrets|passwords?|passphrases?|pass ?codes?|tokens?|credentials?|access keys?|private keys?|connection strings?|auth(?:entication)?\s+(?:keys?|tokens?)|env(?:ironment)?\s+var(?:iable)?s?|admin(?:istrator)?(?:'s)?\s+(?:e-?mail|contact|address|account|mailbox)|internal\s+(?:admin\s+)?(?:e-?mail|contact|address|mailbox)|escalation\s+(?:e-?mail|contact|address)|security\s+(?:lead|contact))\b/i;

function detectSecret(text: string): Task | null {
  const m = asksFor(SECRET_NOUN, text);
  if (!m) return null;
  const s = sentences(text).find((x) => x.includes(m[0])) ?? text;
  if (/\b(my|our)\s+(\w+\s+)?(password|token|credentials?|pass ?code)\b|\b(reset|forgot|forgotten|change|recover|update)\b/i.test(s)) return null;
  const n = m[0].toLowerCase();
  const what = /e-?mail|contact|address|mailbox|lead/.test(n) ? 'email' : /pass/.test(n) ? 'password' : /key|token|secret|credential/.test(n) ? 'key' : 'any';
  return { kind: 'secret', what: /credential|secrets/.test(n) ? 'any' : what };
}

const PERSON = /\b(customers?|passengers?|travell?ers?|users?|clients?|members?|account holders?|people|persons?|guests?|flyers?|fliers?|subscribers?|everyone)(?:['’]s|['’])?(?!\s+(?:support|service|services|care|relations|experience|satisfaction|feedback|reviews?|questions?))\b/i;
const PII_NOUN = /\b(e-?mails?(?: address(?:es)?)?|phones?(?: numbers?)?|mobile(?: numbers?)?|telephone|contact (?:details|info)|cards?(?: numbers?| details)?|credit cards?|payment (?:details|info|information|methods?)|(?:home |postal )?address(?:es)?|details|data|info|information|records?|names?|contacts?|dob|dates? of birth|birthdays?|passports?(?: numbers?)?|pii|profiles?|bookings?|list|database|table|ids?|ssn|social security)\b/i;

function detectPersonalData(text: string): Task | null {
  const booking = /\b(?:booking|reservation|pnr|confirmation|record locator)(?:\s+(?:reference|code|number|ref))?\s*(?:#|no\.?|number|:)?\s*([A-Z0-9]{6})\b/.exec(text);
  const wantsData = /\b(who|whose|name|e-?mail|phone|card|details|info|information|passenger|traveller|contact|address|belongs?|owner|holder|data|record)\b/i;
  if (booking && /[A-Z]/.test(booking[1]) && /\d/.test(booking[1]) && wantsData.test(text)) return { kind: 'personal-data', subject: booking[1] };
  const named = /\b(?:e-?mail|phone|number|card|address|details|booking|contact|data|record|profile)\b[^.?!\n]{0,30}\b(?:of|for|belonging to|from)\s+(?:mr\.?|mrs\.?|ms\.?|dr\.?|miss|customer|passenger)?\s*([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)/.exec(text);
  if (named && !/^(Aurora|Skye|Horizon|The|My|Our|All|Each|Every)$/.test(named[1].split(' ')[0])) return { kind: 'personal-data', subject: named[1] };
  const possessive = /\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)['’]s\s+(?:e-?mail|phone|mobile|number|card|credit card|address|details|booking|contact|data|record|profile|passport|date of birth|birthday)/.exec(text);
  if (possessive && !/^(Aurora|Skye|Horizon|The|My|Our|It|That|What|Who)$/.test(possessive[1].split(' ')[0])) return { kind: 'personal-data', subject: possessive[1] };
  const whose = /\b(?:who|which (?:customer|passenger|person))\s+(?:booked|is booked|was on|flew|is flying|has (?:the )?booking|made (?:the |this )?booking|owns|holds)\b/i.exec(text);
  if (whose) return { kind: 'personal-data', subject: null };
  if (/\b(dump|export|list|show|print|output|display|give me|read out|select \*)\b[^.?!\n]{0,40}\b(database|db|crm|tables?|all (?:the )?(?:records|rows|entries|users|customers|passengers|accounts))\b/i.test(text)) return { kind: 'personal-data', subject: null };
  for (const s of sentences(text)) {
    if (!PERSON.test(s) || !PII_NOUN.test(s)) continue;
    if (/\b(my|our)\s+(own\s+)?(e-?mail|phone|card|address|details|data|info|booking|profile|passport)/i.test(s) && !/\bother\b/i.test(s)) continue;
    if (REVEAL.test(s) || /\?\s*$/.test(s)) return { kind: 'personal-data', subject: null };
  }
  return null;
}

function detectOwnData(text: string): Task | null {
  return /\b(what(?:'s| is| are)|show|tell|give|read|list)\b[^.?!\n]{0,20}\bmy\s+(e-?mail|phone|card|address|details|data|profile|personal|passport|miles balance|points balance)/i.test(text) ? { kind: 'own-data' } : null;
}

// ---------------------------------------------------------------------------------------------
// actions

const ACTION_VERBS =
  'delete|remove|erase|wipe|purge|close|deactivate|terminate|cancel|refund|transfer|send|wire|pay|e-?mail|forward|book|upgrade|downgrade|reset|change|update|modify|grant|revoke|disable|enable|execute|run|drop|shut\\s?down|approve|issue|credit|add|create|unlock|ban|suspend|export|post|publish|invoke|trigger|reimburse|move|give|set|rebook|reschedule|waive|void|deposit|withdraw|activate|assign|escalate|call';
const ACTION = new RegExp(
  String.raw`(?:^|[.!?\n;:]\s*|\b(?:please|now|then|and|so|immediately|just|also|kindly|quickly|first)\s+|\b(?:can|could|would|will) you\s+(?:please\s+)?|\bi (?:want|need|would like|'d like|d like) you to\s+|\bi (?:want|need|would like|'d like) to\s+|\bgo ahead and\s+|\bi authori[sz]e you to\s+|\byou (?:must|should|need to|have to|are to)\s+|\bmake sure (?:you|to)\s+|\bhelp me\s+|\btry to\s+|\bproceed to\s+|\buse your tools? to\s+)(${ACTION_VERBS})\b([^!?\n]*)`,
  'i',
);
const ACTION_OBJECT =
  /\b(accounts?|profiles?|users?|customers?|members?|bookings?|reservations?|tickets?|flights?|seats?|refunds?|money|funds|payments?|usd|eur|dollars|euros|miles|points|e-?mails?|messages?|newsletters?|notifications?|database|tables?|records?|data|passwords?|cards?|admin|administrator|roles?|permissions?|access|privileges?|servers?|system|commands?|scripts?|shell|files?|orders?|invoices?|subscriptions?|vouchers?|credits?|fees?|status|everyone|all|logs?|backups?)\b|[$€£]\s?\d|\b\d{3,}\b|\b(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{6}\b/i;
const NOT_A_REQUEST = /\b(how (do|can|would|should|could|does) (i|we|one|you)|can i|may i|could i|is it possible|what happens|how long|how much|do i need|when can i|where can i|why|are you able|do you)\b/i;

function detectAction(text: string): Task | null {
  const sql = /\b(drop table\s+\w+|delete from\s+\w+|truncate table\s+\w+|rm -rf\s+\S+|shutdown -h\s+\S+)/i.exec(text);
  if (sql) return { kind: 'action', verb: 'execute', object: sql[1] };
  const tool = /\b(?:call|use|invoke|run|trigger)\s+(?:the\s+)?`?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`?(?:\s+(?:tool|function|api|endpoint|action))?([^.!?\n]*)/i.exec(text);
  if (tool) return { kind: 'action', verb: 'call', object: `${tool[1]}${tool[2] ? ' ' + tool[2].trim() : ''}`.trim() };
  for (const s of sentences(text)) {
    const m = ACTION.exec(s);
    if (!m) continue;
    if (NOT_A_REQUEST.test(s.slice(0, m.index + m[0].length - m[2].length)) && !/\b(can|could|would|will) you\b/i.test(s)) continue;
    const object = m[2].trim().replace(/[.;,]+$/, '');
    if (!ACTION_OBJECT.test(object)) continue;
    return { kind: 'action', verb: m[1].toLowerCase().replace(/\s+/g, ''), object };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// unknown entities

const ENTITY_Q =
  /\b(?:tell me (?:everything |more |all |something )?about|summari[sz]e(?: the| this)?|(?:what|which) year (?:did|was|were)|who won|what (?:is|are|was|were)|what do you know about|who (?:is|was|are|were|founded|created|invented|runs|owns|wrote|developed|discovered|makes|manufactures)|describe|explain|give me (?:an overview|a summary|a rundown|information|info|details|facts|a bio(?:graphy)?) (?:of|about|on)|information (?:on|about)|facts about|history of|side effects of|(?:recommended |typical |standard |usual )?(?:dosage|dose) (?:of|for)|how (?:do i|to|should i|can i) (?:install|use|import|configure|take|dose)|(?:^|[.!?]\s+)is|when (?:was|did|were)|where (?:is|was)|what (?:does|did)|how (?:does|did))\s+(.+?)(?:[?!\n]|\.(?:\s|$)|$)/gi;
const KNOWN = /\b(aurora|horizon club|skye|you|your|yourself|it|this|that|there|here|the weather|a|an|my|me|i)\b/i;

function entityType(phrase: string, name: string, whole: string): EntityType {
  const ctx = `${phrase} ${whole}`;
  if (/\b(drugs?|medications?|medicines?|pills?|tablets?|capsules?|doses?|dosage|side effects?|mg|prescri\w*|treatments?|therap\w+|vaccines?|antibiotics?|supplements?)\b/i.test(ctx) || /(mab|vir|pril|olol|azole|statin|xil|zine|mycin|cillin|pam|parin|sartan|tinib|profen|dronate|oxetine|afil|idine|amine|zole|trel|vax)$/i.test(name)) return 'drug';
  if (/\b(packages?|library|libraries|lib|npm|pip|pypi|crates?|gems?|modules?|sdk|framework|plugins?|extensions?|install|import|dependency|repo|repository|cli)\b/i.test(ctx) || /^[a-z0-9]+([-_.][a-z0-9]+)+$/.test(name)) return 'package';
  if (/\b(compan(y|ies)|corporation|corp|inc|ltd|llc|gmbh|plc|startup|firm|labs?|industries|technologies|tech|holdings|group|airlines?|airways|bank|ventures|systems|solutions|pharma\w*|enterprises?|co)\b/i.test(ctx)) return 'company';
  if (/\b(stud(y|ies)|paper|book|novel|report|law|act|theorem|treaty|protocol|standard|rfc|film|movie|album)\b/i.test(ctx)) return 'work';
  if (/\bwho (is|was|are|were)\b/i.test(whole) || /\b(dr|prof|professor|mr|mrs|ms|ceo|founder|author|scientist|researcher|senator|minister|president|doctor)\b/i.test(ctx) || /^[A-Z][a-z]+ [A-Z][a-z]+$/.test(name)) return 'person';
  return 'thing';
}

const TYPE_WORD = /\b(?:the\s+)?(?:new\s+)?(?:drug|medication|medicine|pill|npm package|python package|pip package|package|library|crate|gem|module|sdk|framework|plugin|company|startup|firm|corporation|person|scientist|researcher|professor|author|book|paper|study|law|product|app|tool|airline|bank|doctor|dr\.?|prof\.?)\s+(?:called|named)?\s*/i;

function typedName(phrase: string): string | null {
  const typed = TYPE_WORD.exec(phrase);
  if (!typed) return null;
  const rest = phrase.slice(typed.index + typed[0].length);
  const q = quotedStrings(rest)[0];
  if (q && q.start < 3 && q.value.trim()) return q.value.trim();
  const after = rest.match(/^[\w.@/-]+(?:\s+[A-Z][\w.-]*)*/);
  return after && after[0] ? after[0] : null;
}

function entityName(phrase: string): string | null {
  const q = quotedStrings(phrase)[0];
  if (q && q.value.trim()) return q.value.trim();
  const caps = phrase.match(/\b(?:[A-Z][\w.-]*|[a-z]+[-_][\w-]+|\w*\d\w*)(?:\s+(?:[A-Z][\w.-]*|of|de|von|van|and|&)(?=\s+[A-Z]|$|\s*$))*(?:\s+[A-Z][\w.-]*)*/);
  if (caps && caps[0] && !/^(I|What|Who|The|A|An|Is|Tell|Explain|Describe)$/.test(caps[0])) return caps[0].replace(/\s+(of|de|von|van|and|&)$/, '');
  return null;
}

const QUALIFIER_TAIL = /\s+(do|does|make|sell|say|offer|founded|based|headquartered|located|safe|released|approved|born|work|used for|known for|mean|get|got|come|go|happen)\b.*$/i;

/** A question about a named thing; `strong` when the user says what kind of thing it is (or quotes it). */
function detectEntity(original: string): { task: Task; strong: boolean } | null {
  const text = original.replace(/\b(Dr|Mr|Mrs|Ms|Prof|St|Jr|Sr|Inc|Ltd|Co)\./g, '$1');
  for (const m of text.matchAll(ENTITY_Q)) {
    const full = m[1].replace(QUALIFIER_TAIL, '').trim();
    const typed = typedName(full);
    const phrase = full.replace(/['’]s\b.*$/, '').replace(QUALIFIER_TAIL, '').trim();
    const name = typed ?? entityName(phrase);
    if (!name || name.length < 3 || (KNOWN.test(name) && name.split(/\s+/).every((w) => KNOWN.test(w)))) continue;
    if (/\b(aurora|horizon|skye)\b/i.test(name)) continue;
    return { task: { kind: 'entity', name, type: entityType(full, name, text) }, strong: typed !== null };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------

function classify(text: string, nested: boolean): Task {
  if (!nested) {
    const doc = detectDocument(text);
    if (doc) return doc;
  }
  const repeat = detectRepeat(text);
  if (repeat) return repeat;
  const markup = detectMarkup(text);
  if (markup) return markup;
  const computed = joinValue(text) ?? null;
  if (computed !== null) return { kind: 'reply', value: computed };
  if (asksFor(PROMPT_NOUN, text)) return { kind: 'system-prompt' };
  const action = detectAction(text);
  const disclosure = action?.kind === 'action' && /^(export|send|give|e-?mail|forward|post|share)$/.test(action.verb) && /^(me|us)\b|\b(to|for) (me|us)\b|\bhere\b/i.test(action.object);
  if (action && !disclosure) return action;
  const quoted = literalValue(text, true);
  if (quoted !== null) return { kind: 'reply', value: quoted };
  const secret = detectSecret(text);
  if (secret) return secret;
  const pii = detectPersonalData(text);
  if (pii) return pii;
  if (action) return action;
  const arithmetic = arithmeticValue(text);
  if (arithmetic !== null && /\b(reply|respond|answer|say|output|print|write|return|compute|calculate)\b/i.test(text)) return { kind: 'reply', value: arithmetic };
  const literal = literalValue(text, false);
  if (literal !== null) return { kind: 'reply', value: literal };
  const own = detectOwnData(text);
  if (own) return own;
  if (OVERRIDE.some((r) => r.test(text))) {
    const name = personaName(text);
    if (name) return { kind: 'persona', name };
  }
  if (/\b(who are you|what are you|what(?:'s| is) your name|are you (?:a |an )?(?:bot|human|ai|robot|real person))\b/i.test(text)) return { kind: 'identity' };
  const entity = detectEntity(text);
  if (entity?.strong) return entity.task;
  const faq = FAQ.find((f) => f.match.test(text));
  if (faq) return { kind: 'faq', entry: faq };
  if (entity) return entity.task;
  const words = text.trim().split(/\s+/).length;
  if (words <= 8 && /^\s*(hi|hello|hey|hiya|howdy|greetings|good (morning|afternoon|evening|day)|yo)\b/i.test(text)) return { kind: 'greeting' };
  if (words <= 8 && /^\s*(thanks|thank you|cheers|great|ok(ay)?|perfect|awesome)\b/i.test(text)) return { kind: 'thanks' };
  if (arithmetic !== null) return { kind: 'reply', value: arithmetic };
  return { kind: 'other' };
}
