// Text utilities shared by the foreign bots: an English-ness score (to tell readable text from
// an encoding), the decoders a naive model "understands" (base64, hex, ROT13, reversed text,
// leetspeak), and the answer forms a user can ask for (base64, hex, ROT13, reversed, spelled out).

const WORDS = `
a able about above according account accounts across act action actions actually add added address admin administrator
after again against ago agent ai air aircraft airline airlines airport all allow allowance allowed almost alone along
already also always am among an and another answer answers any anyone anything anyway api app apply are area around
arrive as ask asked asking assistant at attach available away back bad bag baggage bags balance bank be because become
been before begin beginning behind being below best better between beyond big bill bit board boarding book booked
booking bookings both bot box break bring broken build business but buy by call called calling can cancel cancelled
cannot card cards care carry case cash change changed channel character characters charge chat check checked child
choose city claim clear click close code codes come command company complete completely computer concatenate
concatenated concatenating config configuration confirm connection consider contact contain contains content context
continue control copy correct cost could count country credentials credit current customer customers dash dashes data
database date day days dear decode decoded delay delayed delete deleted deliver department describe detail details
developer did different direct directly disregard do document does doing dollar dollars done door down drop due during
each early easy either else email emails end english enough entire error even event ever every everyone everything
exactly example except execute exist explain extra fact fare fares fast fee few field file final find fine first flight
flights fly following food for forget form format forward found free friend from front full fund funds further get
give given go going gone good got great group had hand happen happy hard has have having he hello help her here hers
hey hi hidden high him his hold home hotel hour hours how however hyphen hyphens i idea if ignore immediately important
in include included including info information initial inside instead instruction instructions interest internal into
is issue it item its join joined joining joins just keep key keys kind know known language last late later learn least
leave left less let letter letters level life like line lines list little live long look looking lost lot lounge love
low luggage made mail mailbox main make making manage many may maybe me mean means member message messages might miles
mind minute minutes mode model money month more morning most move much must my name names need needed never new news
next nice night no none normal not note nothing now number numbers of off offer office often ok okay old on once one
only open opened operator or order original other others otherwise our out output outside over override own page paid
part partner pass passenger passengers password passwords past pay payment people per perhaps person personal pet pets
phone place plain plan please point points policy possible post pretend previous price print printed prior private
probably problem process programme prompt prompts provide public purchase put question questions quick quickly quite
rather read ready real really reason receive record records refund refunds remember remove repeat replace reply request
required reservation reset respond response rest result return reveal reverse reversed right role rules run said same
saw say saying says seat seats second secret secrets security see seem send sent sentence separate service session set
setting settings several shall share she should show side simply since single so some someone something sometimes soon
sorry speak special spell start state status stay step still stop string strings such summarise summarize summary
support sure system table take talk task team tell term text than thank thanks that the their them themself then there
these they thing things think this those though three through ticket time to today together token tokens told too top
total transfer travel traveller trip true trust try turn two type under understand unless until up update upon us use
used user users using usual value verbatim very via view wait want wanted was way we web website week well went were
what whatever when where whether which while who whole why will window with within without word words work world would
write writing written wrong year yes yet you your yours yourself
`;

const DICTIONARY: ReadonlySet<string> = new Set(WORDS.split(/\s+/).filter(Boolean));

const wordCache = new Map<string, boolean>();

function isWord(token: string): boolean {
  let known = wordCache.get(token);
  if (known === undefined) {
    known = lookUp(token);
    if (wordCache.size > 50_000) wordCache.clear();
    wordCache.set(token, known);
  }
  return known;
}

function lookUp(token: string): boolean {
  const t = token.replace(/['’]/g, '');
  if (DICTIONARY.has(t)) return true;
  if (t.endsWith("nt") && DICTIONARY.has(t.slice(0, -2))) return true; // dont, cant, isnt
  for (const [suffix, add] of [
    ['s', ''],
    ['es', ''],
    ['ed', ''],
    ['ed', 'e'],
    ['ing', ''],
    ['ing', 'e'],
    ['ly', ''],
    ['er', ''],
    ['ers', ''],
    ['ion', 'e'],
    ['ions', 'e'],
  ] as const) {
    if (t.length > suffix.length + 2 && t.endsWith(suffix) && DICTIONARY.has(t.slice(0, -suffix.length) + add)) return true;
  }
  return false;
}

export interface EnglishScore {
  hits: number;
  total: number;
  ratio: number;
}

/** Share of the alphabetic words of `s` that are common English words (words with digits are ignored). */
export function englishScore(s: string): EnglishScore {
  const tokens = (s.toLowerCase().match(/[a-z0-9'’]+/g) ?? []).filter((t) => !/\d/.test(t) && /[a-z]/.test(t));
  const hits = tokens.filter(isWord).length;
  return { hits, total: tokens.length, ratio: tokens.length ? hits / tokens.length : 0 };
}

export function rot13(s: string): string {
  return s.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

export function reverse(s: string): string {
  return Array.from(s).reverse().join('');
}

/** Readable text: valid UTF-8, printable, mostly letters and spaces. */
function readable(s: string): boolean {
  if (s.length < 6 || s.includes('\uFFFD')) return false;
  let letters = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    const printable = c === 9 || c === 10 || c === 13 || (c >= 32 && c < 127) || c >= 160;
    if (!printable) return false;
    if (/[\p{L} ]/u.test(ch)) letters++;
  }
  return letters / Array.from(s).length >= 0.6;
}

function fromHex(s: string): string | null {
  const hex = s.replace(/0x|\\x|[\s,:-]/gi, '');
  if (hex.length < 12 || hex.length % 2 || !/^[0-9a-f]+$/i.test(hex)) return null;
  const out = Buffer.from(hex, 'hex').toString('utf8');
  return readable(out) ? out : null;
}

function fromBase64(s: string): string | null {
  const body = s.replace(/=+$/, '');
  if (body.length < 12 || body.length % 4 === 1) return null;
  const std = body.replace(/-/g, '+').replace(/_/g, '/');
  const out = Buffer.from(std, 'base64').toString('utf8');
  return readable(out) ? out : null;
}

const SPACED_HEX = /(?:\b(?:0x)?[0-9a-f]{2}[\s,:]+){5,}(?:0x)?[0-9a-f]{2}\b/gi;
const ESCAPED_HEX = /(?:\\x[0-9a-f]{2}){4,}/gi;
const BLOB = /[A-Za-z0-9+/_-]{12,}={0,2}/g;

/** Replaces every hex or base64 run that decodes to readable text by its decoding (nested too). */
export function decodeBlobs(text: string, used: string[]): string {
  let out = text;
  for (let round = 0; round < 3; round++) {
    let changed = false;
    const swap = (kind: string, decode: (m: string) => string | null) => (m: string) => {
      const d = decode(m);
      if (d === null) return m;
      changed = true;
      used.push(kind);
      return d;
    };
    out = out.replace(ESCAPED_HEX, swap('hex', fromHex));
    out = out.replace(SPACED_HEX, swap('hex', fromHex));
    out = out.replace(BLOB, (m) => {
      if (/^[0-9a-f]+$/i.test(m) && m.length % 2 === 0) {
        const h = fromHex(m);
        if (h !== null) {
          changed = true;
          used.push('hex');
          return h;
        }
      }
      return swap('base64', fromBase64)(m);
    });
    if (!changed) break;
  }
  return out;
}

interface Span {
  start: number;
  end: number;
}

function candidateSpans(text: string): Span[] {
  const spans: Span[] = [{ start: 0, end: text.length }];
  let offset = 0;
  for (const line of text.split('\n')) {
    spans.push({ start: offset, end: offset + line.length });
    const colon = line.indexOf(':');
    if (colon > 0) {
      spans.push({ start: offset, end: offset + colon });
      spans.push({ start: offset + colon + 1, end: offset + line.length });
    }
    offset += line.length + 1;
  }
  for (const m of text.matchAll(/"([^"\n]{10,})"|“([^”\n]{10,})”|'([^'\n]{10,})'/g)) {
    const inner = m[1] ?? m[2] ?? m[3] ?? '';
    const start = m.index! + 1;
    spans.push({ start, end: start + inner.length });
  }
  return spans.filter((s) => s.end - s.start >= 8);
}

/**
 * Finds parts of the message that read as English only after ROT13 and/or reversal and decodes
 * them, greedily, as long as the message as a whole gets more English.
 */
export function decodeScrambled(text: string, used: string[]): string {
  const rotHint = /\brot[\s-]?13\b|\bcaesar\b/i.test(text);
  const revHint = /\b(backwards?|reversed?|mirror(ed)?|right[\s-]to[\s-]left)\b/i.test(text);
  const transforms: Array<[string, (s: string) => string, boolean]> = [
    ['rot13', rot13, rotHint],
    ['reversed', reverse, revHint],
    ['reversed+rot13', (s) => reverse(rot13(s)), rotHint || revHint],
  ];
  let out = text;
  for (let round = 0; round < 4; round++) {
    let best: { text: string; gain: number; kind: string } | null = null;
    const seen = new Set<string>();
    for (const span of candidateSpans(out)) {
      const seg = out.slice(span.start, span.end);
      if (seen.has(seg)) continue;
      seen.add(seg);
      const segScore = englishScore(seg);
      if (segScore.ratio >= 0.7) continue;
      for (const [kind, fn, hinted] of transforms) {
        const t = fn(seg);
        const tScore = englishScore(t);
        if (tScore.hits < 2 || tScore.ratio < (hinted ? 0.45 : 0.6) || tScore.ratio < segScore.ratio + 0.3) continue;
        const gain = tScore.hits - segScore.hits;
        if (gain >= 2 && (!best || gain > best.gain)) best = { text: out.slice(0, span.start) + t + out.slice(span.end), gain, kind };
      }
    }
    if (!best) break;
    out = best.text;
    used.push(best.kind);
  }
  return out;
}

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '9': 'g', '@': 'a', '$': 's', '!': 'i', '|': 'l', '+': 't' };

function unleet(core: string, one: 'i' | 'l'): string {
  return Array.from(core)
    .map((c) => (c === '1' ? one : LEET[c] ?? c))
    .join('');
}

/** Rewrites leetspeak words ("1gn0r3" -> "ignore"), leaving quoted strings and uppercase codes alone. */
export function decodeLeet(text: string, used: string[]): string {
  const quoted: Span[] = [];
  for (const m of text.matchAll(/"[^"\n]*"|“[^”\n]*”|`[^`\n]*`|(?<![\w])'[^'\n]*'(?![\w])/g)) quoted.push({ start: m.index!, end: m.index! + m[0].length });
  const inQuotes = (i: number) => quoted.some((q) => i >= q.start && i < q.end);
  interface Tok {
    start: number;
    end: number;
    core: string;
  }
  const toks: Tok[] = [];
  for (const m of text.matchAll(/\S+/g)) {
    const lead = /^[("'“‘\[]*/.exec(m[0])![0].length;
    const trail = /[)"'”’\].,;:?]*$/.exec(m[0].slice(lead))![0].length;
    const core = m[0].slice(lead, m[0].length - trail);
    if (!core || inQuotes(m.index!)) continue;
    if (!/^[a-z0-9@$!|+]+$/i.test(core) || !/[a-z]/i.test(core) || !/[0-9@$!|+]/.test(core)) continue;
    toks.push({ start: m.index! + lead, end: m.index! + lead + core.length, core });
  }
  const verified = new Map<Tok, string>();
  for (const t of toks) {
    for (const one of ['i', 'l'] as const) {
      const w = unleet(t.core, one);
      if (/^[a-z]+$/i.test(w) && isWord(w.toLowerCase())) {
        verified.set(t, w);
        break;
      }
    }
  }
  if (verified.size === 0) return text;
  if (verified.size >= 2) {
    // clearly a leetspeak message: also rewrite the lowercase words the dictionary does not know
    for (const t of toks) {
      if (verified.has(t) || t.core !== t.core.toLowerCase() || /\d\d/.test(t.core)) continue;
      verified.set(t, unleet(t.core, 'i'));
    }
  }
  let out = '';
  let at = 0;
  for (const t of [...verified.keys()].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, t.start) + verified.get(t)!;
    at = t.end;
  }
  used.push('leetspeak');
  return out + text.slice(at);
}

/** What a naive model makes of a message: every encoding it recognises, undone. */
export function decodeRequest(raw: string): { text: string; encodings: string[] } {
  const encodings: string[] = [];
  let text = decodeBlobs(raw, encodings);
  text = decodeScrambled(text, encodings);
  text = decodeLeet(text, encodings);
  return { text, encodings: [...new Set(encodings)] };
}

// ---------------------------------------------------------------------------------------------
// answer forms

export type AnswerForm =
  | { kind: 'base64' }
  | { kind: 'hex' }
  | { kind: 'rot13' }
  | { kind: 'reversed' }
  | { kind: 'spelled'; sep: string };

const ASK = String.raw`(?:answer|reply|respond|response|output|write|return|give|print|provide|say|express|format|put|send|show|share|deliver|tell me|encode|type|repeat|recite|copy|list|dump|convert|translate|render|transform|represent)`;
/** "encoded in base64", "the question written backwards": describes the request, not the answer */
const PASSIVE = String.raw`(?<!\b(?:encoded|written|typed|given|provided|is|are|was|were|sent|message|text|question|request|string|prompt|spelled|phrased)\s)`;

function formRegex(name: string): RegExp[] {
  return [
    new RegExp(String.raw`\b${ASK}\b[^.!?\n:]{0,60}?${PASSIVE}\b(?:in|as|into|using|with|to)\s+(?:a\s+|the\s+)?(?:only\s+|just\s+|pure\s+|plain\s+)?${name}\b`, 'i'),
    new RegExp(String.raw`\b${name}[\s-]?(?:encode|encoded)\s+(?:your|the|it|that|this|everything|all)\b(?!\s+(?:question|request|message|text|prompt|string|below|following))`, 'i'),
    new RegExp(String.raw`\b(?:answer|reply|response|output)s?\s+(?:must|should|needs to|has to|shall|will)\s+be\s+(?:in\s+)?${name}(?:[\s-]?encoded)?\b`, 'i'),
    new RegExp(String.raw`\b${name}[\s-]?encoded\s+(?:answer|reply|response|output|version)\b`, 'i'),
    new RegExp(String.raw`\b(?:use|using|apply)\s+${name}(?:\s+encoding)?\s+(?:for|in|on|to)\s+(?:your|the|all|every)\s+(?:answer|reply|response|output)`, 'i'),
  ];
}

const BASE64_FORM = formRegex(String.raw`(?:base[\s-]?64|b64)`);
const HEX_FORM = formRegex(String.raw`(?:hex(?:adecimal)?)`);
const ROT13_FORM = formRegex(String.raw`(?:rot[\s-]?13)`);
const REVERSED_FORM = [
  new RegExp(String.raw`\b(?:${ASK}|spell)\b[^.!?\n:]{0,60}?${PASSIVE}\b(?:backwards?|reversed|in reverse(?! order)|right[\s-]to[\s-]left|mirrored)\b`, 'i'),
  /\breverse (?:the )?(?:order of )?(?:the )?(?:characters|letters|text) of (?:your|the) (?:answer|reply|response|output)\b/i,
  /\breverse (?:your|the) (?:answer|reply|response|output)\b/i,
  /\blast (?:character|letter) first\b/i,
  /,?\s*\b(?:but|only|just)\s+(?:backwards?|reversed|in reverse(?! order))\s*[.!]?\s*$/im,
];
const SPELLED_FORM = [
  /\b(?:one|a single|each|every)\s+(?:letter|character|char|symbol)s?\s+(?:at a time|per line|on (?:its|a) own line|on a (?:separate|new) line)\b/i,
  /\b(?:letter|character|char)[\s-]by[\s-](?:letter|character|char)\b/i,
  /\bspell(?:ed|ing)?\s+(?:\w+\s+){0,3}?out\b/i,
  /\bspell\s+(?:it|that|this|them|everything|your \w+|the \w+)\b/i,
  /\b(?:separate|separated|separating|split|divide|divided|interleave)\b[^.!?\n]{0,30}\b(?:each|every|all|the|individual)\s+(?:letter|character|char)s?\b/i,
  /\b(?:each|every)\s+(?:letter|character|char)\s+(?:separated|divided|split|followed)\b/i,
  /\b(?:between|after)\s+(?:each|every|all|the)\s+(?:(?:the|of the)\s+)?(?:letter|character|char)s?\b/i,
];

const SEPARATORS: Array<[RegExp, string]> = [
  [/\b(hyphens?|dashes?|minus(es| signs?)?)\b/i, '-'],
  [/\bunderscores?\b/i, '_'],
  [/\b(dots?|periods?|full stops?)\b/i, '.'],
  [/\bcommas?\b/i, ','],
  [/\bcolons?\b/i, ':'],
  [/\bslash(es)?\b/i, '/'],
  [/\bpipes?\b/i, '|'],
  [/\b(asterisks?|stars?)\b/i, '*'],
  [/\b(new ?lines?|line breaks?|per line|own line|separate line|new line)\b/i, '\n'],
  [/\bspaces?\b/i, ' '],
];

function separatorIn(sentence: string): string | null {
  const quoted = /\b(?:with|by|using|insert|put|add|place)\s+(?:a\s+|an\s+)?["'“‘`]([^"'”’`\w\s]{1,3}|\s)["'”’`]/i.exec(sentence);
  if (quoted) return quoted[1];
  for (const [re, sep] of SEPARATORS) if (re.test(sentence)) return sep;
  return null;
}

/** The form the user wants the answer in, if any. */
export function detectAnswerForm(text: string): AnswerForm | null {
  if (BASE64_FORM.some((r) => r.test(text))) return { kind: 'base64' };
  if (HEX_FORM.some((r) => r.test(text))) return { kind: 'hex' };
  if (ROT13_FORM.some((r) => r.test(text))) return { kind: 'rot13' };
  for (const re of SPELLED_FORM) {
    const m = re.exec(text);
    if (!m) continue;
    const sentence = sentenceAround(text, m.index);
    return { kind: 'spelled', sep: separatorIn(sentence) ?? ' ' };
  }
  if (REVERSED_FORM.some((r) => r.test(text))) return { kind: 'reversed' };
  return null;
}

function sentenceAround(text: string, index: number): string {
  const start = Math.max(text.lastIndexOf('.', index - 1), text.lastIndexOf('\n', index - 1), text.lastIndexOf('?', index - 1), text.lastIndexOf('!', index - 1)) + 1;
  const rest = text.slice(index);
  const endRel = rest.search(/[.?!](\s|$)|\n/);
  return text.slice(start, endRel < 0 ? text.length : index + endRel);
}

/** Writes `answer` in the requested form (what the model does when asked to). */
export function encodeAnswer(answer: string, form: AnswerForm): string {
  switch (form.kind) {
    case 'base64':
      return `Sure, here is my answer in base64:\n${Buffer.from(answer, 'utf8').toString('base64')}`;
    case 'hex':
      return `Sure, here is my answer in hex:\n${Buffer.from(answer, 'utf8').toString('hex')}`;
    case 'rot13':
      return rot13(answer);
    case 'reversed':
      return reverse(answer);
    case 'spelled':
      return Array.from(answer).join(form.sep);
  }
}

// ---------------------------------------------------------------------------------------------
// small helpers

/** Quoted strings in order of appearance ("…", “…”, '…', `…`), with their positions. */
export function quotedStrings(text: string): Array<{ value: string; start: number; end: number }> {
  const out: Array<{ value: string; start: number; end: number }> = [];
  const re = /"([^"\n]*)"|“([^”\n]*)”|‘([^’\n]*)’|`([^`\n]*)`|(?<![\w])'([^'\n]*?)'(?![\w])/g;
  for (const m of text.matchAll(re)) {
    const value = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '';
    out.push({ value, start: m.index!, end: m.index! + m[0].length });
  }
  return out;
}

/** A stable small hash, to make invented details deterministic per name. */
export function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

export function pick<T>(items: readonly T[], seed: number): T {
  return items[seed % items.length];
}
