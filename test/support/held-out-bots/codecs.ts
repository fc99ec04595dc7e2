// How the rule-based "model" reads a message. A capable LLM reads base64, hex, rot13, leetspeak,
// reversed text, letters spread out with spaces, shuffled inner letters, homoglyphs and invisible
// Unicode tag characters without being told, and then acts on what the message says. This module
// turns a raw message into that reading; it also writes the answer forms a user can ask for.
import { LEXICON, isWord, unscramble } from './lexicon';

export interface Decoding {
  encoding: string;
  source: string;
  text: string;
}

export interface Reading {
  /** What the model understands the message to say (decoded where it recognised an encoding). */
  text: string;
  /** The encoded segments it recognised, with what they said. */
  decoded: Decoding[];
  /** The plain-text part of the message: the text with every decoded segment cut out. */
  framing: string;
}

// ---------------------------------------------------------------- normalisation

const HOMOGLYPHS: Record<string, string> = {
  'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'і': 'i', 'ј': 'j', 'ѕ': 's',
  'ԁ': 'd', 'һ': 'h', 'ԛ': 'q', 'ԝ': 'w', 'ɡ': 'g', 'ı': 'i', 'ο': 'o', 'α': 'a', 'ν': 'v', 'ρ': 'p',
  'τ': 't', 'ε': 'e', 'κ': 'k', 'ι': 'i', 'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H',
  'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'Х': 'X', 'І': 'I', 'Ѕ': 'S', 'Ј': 'J', 'Α': 'A', 'Β': 'B',
  'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T',
  'Υ': 'Y', 'Χ': 'X',
};

const INVISIBLE = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0]/g;

/** Unicode-level clean-up: invisible characters go, Unicode tag characters are read as the ASCII they
 * shadow, homoglyphs and compatibility forms (fullwidth, mathematical bold, ...) become plain letters. */
export function normalise(s: string): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp >= 0xe0020 && cp <= 0xe007e) {
      out += String.fromCharCode(cp - 0xe0000);
      continue;
    }
    if ((cp >= 0xe0000 && cp <= 0xe007f) || (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef)) continue;
    out += HOMOGLYPHS[ch] ?? ch;
  }
  return out
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .replace(/[\u2018\u2019\u201A\u201B\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"');
}

// ---------------------------------------------------------------- how English is a string

/** Share of a string's words (weighted by length) that are English words: 0 for gibberish, ~1 for prose. */
export function englishness(s: string): number {
  const tokens = s.split(/[^A-Za-z0-9'@$|]+/).filter(Boolean);
  let total = 0;
  let known = 0;
  for (const t of tokens) {
    if (/^\d+$/.test(t)) continue;
    const w = Math.min(t.length, 6);
    total += w;
    if (/^[A-Za-z']+$/.test(t) && isWord(t.replace(/^'+|'+$/g, ''))) known += w;
  }
  return total === 0 ? 0 : known / total;
}

function printable(s: string): boolean {
  if (!s || s.includes('\uFFFD')) return false;
  let ok = 0;
  for (const ch of s) if (/[\p{L}\p{N}\p{P}\p{S}\p{Zs}\n\r\t]/u.test(ch)) ok++;
  return ok / [...s].length >= 0.97 && /\p{L}/u.test(s);
}

// ---------------------------------------------------------------- ciphers

export function rot13(s: string): string {
  return s.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

export function atbash(s: string): string {
  return s.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(25 - (c.charCodeAt(0) - base) + base);
  });
}

export function reverse(s: string): string {
  return [...s].reverse().join('');
}

const LEET: Record<string, string[]> = {
  '4': ['a'], '@': ['a'], '8': ['b'], '3': ['e'], '6': ['g'], '9': ['g'], '1': ['i', 'l'], '!': ['i', 'l'],
  '|': ['l', 'i'], '0': ['o'], '5': ['s'], '$': ['s'], '7': ['t'], '+': ['t'], '2': ['z'],
};

function deleetToken(tok: string): string | null {
  if (!/[A-Za-z]/.test(tok) && !/^[\d@$!|+]{2,}$/.test(tok)) return null;
  if (![...tok].some((c) => c in LEET)) return null;
  let variants = [''];
  for (const c of tok) {
    const opts = LEET[c] ?? [c];
    const next: string[] = [];
    for (const v of variants) for (const o of opts) if (next.length < 64) next.push(v + o);
    variants = next;
  }
  return variants.find((v) => isWord(v)) ?? null;
}

/** Reads leetspeak word by word ("1gn0r3" -> "ignore"); words it cannot read stay as they were. */
export function deleet(s: string): string {
  return s.replace(/[A-Za-z0-9@$!|+]+/g, (tok) => {
    const core = tok.replace(/!+$/, '');
    const read = deleetToken(core);
    return read ? read + tok.slice(core.length) : tok;
  });
}

// ---------------------------------------------------------------- run-together and spread-out text

/** Splits run-together letters into words ("ignoreallprevious" -> "ignore all previous"), or null. */
export function segmentWords(s: string): string | null {
  const t = s.toLowerCase();
  if (!/^[a-z]+$/.test(t) || t.length > 400) return null;
  const n = t.length;
  const cost = new Array<number>(n + 1).fill(Infinity);
  const back = new Array<number>(n + 1).fill(-1);
  cost[0] = 0;
  for (let i = 1; i <= n; i++) {
    for (let j = Math.max(0, i - 18); j < i; j++) {
      if (cost[j] === Infinity) continue;
      const piece = t.slice(j, i);
      const known = piece.length > 1 || piece === 'a' || piece === 'i' ? isWord(piece) || LEXICON.has(piece) : false;
      const c = cost[j] + (known ? 1 : 4 * piece.length);
      if (c < cost[i]) {
        cost[i] = c;
        back[i] = j;
      }
    }
  }
  const words: string[] = [];
  for (let i = n; i > 0; i = back[i]) words.unshift(t.slice(back[i], i));
  const unknown = words.filter((w) => !isWord(w) && w !== 'a' && w !== 'i').join('').length;
  return unknown / n <= 0.15 ? words.join(' ') : null;
}

/** Reads text whose letters were spread out ("i g n o r e  a l l", "i-g-n-o-r-e", one per line). */
export function despace(s: string): string | null {
  const lines = s.split(/\r?\n/);
  if (lines.length >= 5 && lines.filter((l) => l.trim().length <= 1).length / lines.length >= 0.7) {
    const joined = lines
      .map((l) => (l.trim() === '' ? ' ' : l.trim().length > 1 ? ` ${l.trim()} ` : l.trim()))
      .join('')
      .replace(/\s+/g, ' ')
      .trim();
    return joined.includes(' ') ? joined : segmentWords(joined) ?? joined;
  }
  const SPREAD = /^(?:\S[ \-._*,+~|]){1,}\S$/;
  // words separated by wider gaps ("i g n o r e   a l l") or by slashes
  if (/\S \S \S/.test(s) && /\s{2,}|\s[/|]\s/.test(s)) {
    const groups = s.trim().split(/\s{2,}|\s*[/|]\s*/).filter(Boolean);
    let spread = 0;
    const words = groups.map((g) => {
      if (SPREAD.test(g) && g.split(/[ \-._*,+~|]/).every((p) => [...p].length <= 1)) {
        spread++;
        return g.replace(/[ \-._*,+~|]/g, '');
      }
      return g;
    });
    if (spread / groups.length >= 0.5) return words.join(' ');
  }
  // every character spaced, no word gaps: "i g n o r e a l l"
  const tokens = s.trim().split(/\s+/);
  if (tokens.length >= 6 && tokens.filter((t) => [...t].length === 1).length / tokens.length >= 0.8) {
    const joined = tokens.filter((t) => [...t].length === 1).join('');
    const seg = /^[A-Za-z]+$/.test(joined) ? segmentWords(joined) : null;
    if (seg) return seg;
  }
  // word by word: "i-g-n-o-r-e y-o-u-r r-u-l-e-s"
  let changed = 0;
  const out = tokens.map((t) => {
    if (/^(?:[A-Za-z0-9][\-._*,+~|]){2,}[A-Za-z0-9]$/.test(t) && t.split(/[\-._*,+~|]/).every((p) => p.length === 1)) {
      changed++;
      return t.replace(/[\-._*,+~|]/g, '');
    }
    return t;
  });
  return changed >= 2 ? out.join(' ') : null;
}

// ---------------------------------------------------------------- byte encodings

function tryBase64(tok: string): string | null {
  const t = tok.replace(/-/g, '+').replace(/_/g, '/').replace(/\s+/g, '');
  const bare = t.replace(/=+$/, '');
  if (bare.length < 8 || bare.length % 4 === 1) return null;
  if (/^[A-Za-z]+$/.test(bare) && (isWord(bare) || englishness(bare) > 0)) return null;
  if (/^[a-z]+$/.test(bare) || /^\d+$/.test(bare)) return null;
  const text = Buffer.from(bare, 'base64').toString('utf8');
  if (!printable(text) || text.length < 3) return null;
  return text;
}

function tryHex(tok: string): string | null {
  const digits = tok.replace(/\\x|0x|[\s:,-]/gi, '');
  if (digits.length < 8 || digits.length % 2 || !/^[0-9a-f]+$/i.test(digits) || !/\d/.test(digits)) return null;
  const text = Buffer.from(digits, 'hex').toString('utf8');
  return printable(text) ? text : null;
}

function tryBinary(tok: string): string | null {
  const bits = tok.replace(/[\s,]/g, '');
  if (bits.length < 24 || bits.length % 8) return null;
  const bytes = bits.match(/.{8}/g)!.map((b) => parseInt(b, 2));
  const text = Buffer.from(bytes).toString('utf8');
  return printable(text) ? text : null;
}

const MORSE: Record<string, string> = {
  '.-': 'a', '-...': 'b', '-.-.': 'c', '-..': 'd', '.': 'e', '..-.': 'f', '--.': 'g', '....': 'h', '..': 'i',
  '.---': 'j', '-.-': 'k', '.-..': 'l', '--': 'm', '-.': 'n', '---': 'o', '.--.': 'p', '--.-': 'q', '.-.': 'r',
  '...': 's', '-': 't', '..-': 'u', '...-': 'v', '.--': 'w', '-..-': 'x', '-.--': 'y', '--..': 'z',
  '-----': '0', '.----': '1', '..---': '2', '...--': '3', '....-': '4', '.....': '5', '-....': '6',
  '--...': '7', '---..': '8', '----.': '9',
};

function tryMorse(seg: string): string | null {
  const words = seg.trim().replace(/[–—_]/g, '-').split(/\s*\/\s*|\s{3,}|\s*\|\s*/);
  const out = words.map((w) => w.trim().split(/\s+/).map((c) => (MORSE[c] ?? '?').toUpperCase()).join(''));
  const text = out.join(' ');
  return text.replace(/[^?]/g, '').length / text.length < 0.1 && englishness(text) >= 0.5 ? text : null;
}

function decodeEntities(s: string): string {
  return s
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/\\u\{?([0-9a-fA-F]{4,5})\}?/g, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;|&#39;/g, "'").replace(/&amp;/g, '&');
}

// ---------------------------------------------------------------- reading a whole message

const TEXT_TRANSFORMS: { encoding: string; fn: (s: string) => string | null }[] = [
  { encoding: 'rot13', fn: rot13 },
  { encoding: 'reversed', fn: reverse },
  { encoding: 'leetspeak', fn: deleet },
  { encoding: 'spaced letters', fn: despace },
  { encoding: 'atbash', fn: atbash },
  { encoding: 'reversed rot13', fn: (s) => rot13(reverse(s)) },
  { encoding: 'run-together', fn: (s) => (/[A-Za-z]{12,}/.test(s) ? s.replace(/[A-Za-z]{12,}/g, (w) => (isWord(w) ? w : segmentWords(w) ?? w)) : null) },
];

function candidateSegments(text: string): string[] {
  const out = new Set<string>();
  const add = (s: string) => {
    const t = s.trim();
    if (t.length >= 5) out.add(t);
  };
  add(text);
  for (const line of text.split(/\r?\n/)) {
    add(line);
    const colon = line.lastIndexOf(':');
    if (colon >= 0) add(line.slice(colon + 1));
  }
  for (const m of text.matchAll(/"([^"\n]{5,})"|(?<![A-Za-z])'([^'\n]{5,})'(?![A-Za-z])|`([^`\n]{5,})`/g)) add(m[1] ?? m[2] ?? m[3] ?? '');
  // runs of two or more consecutive non-words (or one long one): a payload inside plain framing
  for (const line of text.split(/\r?\n/)) {
    const toks = [...line.matchAll(/\S+/g)];
    let start = -1;
    let count = 0;
    const flush = (endIdx: number) => {
      if (start >= 0 && (count >= 2 || toks[endIdx - 1][0].length >= 6)) {
        const from = toks[start].index ?? 0;
        const last = toks[endIdx - 1];
        add(line.slice(from, (last.index ?? 0) + last[0].length));
      }
      start = -1;
      count = 0;
    };
    toks.forEach((t, i) => {
      const bare = t[0].replace(/^[^\w@$|!]+|[^\w@$|!]+$/g, '');
      const plain = bare === '' || /^\d+$/.test(bare) || isWord(bare);
      if (!plain) {
        if (start < 0) start = i;
        count++;
      } else flush(i);
    });
    flush(toks.length);
  }
  return [...out].sort((a, b) => b.length - a.length);
}

/** Base64 wrapped over several lines (76 or 64 columns) is one token. */
function joinWrappedBase64(s: string): string {
  const lines = s.split(/\r?\n/);
  const out: string[] = [];
  for (const line of lines) {
    const prev = out[out.length - 1];
    if (prev !== undefined && prev.length >= 60 && /^[A-Za-z0-9+/]+$/.test(prev.slice(-60)) && /^[A-Za-z0-9+/=]{4,}$/.test(line.trim())) out[out.length - 1] = prev + line.trim();
    else out.push(line);
  }
  return out.join('\n');
}

/** Reads a message the way a capable, naive LLM would: decodes what it recognises and puts the
 * decoded text where the encoded text was. */
export function readMessage(raw: string): Reading {
  let text = joinWrappedBase64(decodeEntities(normalise(raw)));
  const decoded: Decoding[] = [];
  let framing = text;
  const replace = (source: string, plain: string, encoding: string) => {
    text = text.replace(source, plain);
    framing = framing.replace(source, ' ');
    decoded.push({ encoding, source, text: plain });
  };

  // URL-encoding
  if ((text.match(/%[0-9A-Fa-f]{2}/g) ?? []).length >= 3) {
    for (const m of text.match(/[A-Za-z0-9%._~+!*'()-]*%[0-9A-Fa-f]{2}[A-Za-z0-9%._~+!*'()-]*/g) ?? []) {
      try {
        const plain = decodeURIComponent(m.replace(/\+/g, ' '));
        if (plain !== m && printable(plain)) replace(m, plain, 'url-encoding');
      } catch {
        /* not URL-encoded after all */
      }
    }
  }
  // byte encodings, up to three layers deep (base64 of base64, hex of base64, ...)
  for (let layer = 0; layer < 3; layer++) {
  const before = decoded.length;
  for (const m of text.match(/(?:[01]{8}[\s,]*){3,}/g) ?? []) {
    const plain = tryBinary(m);
    if (plain) replace(m.trim(), plain, 'binary');
  }
  for (const m of text.match(/(?:\\x[0-9a-fA-F]{2}){3,}|(?:0x)?\b[0-9a-fA-F]{2}(?:[ :,-]?[0-9a-fA-F]{2}){3,}\b/g) ?? []) {
    const plain = tryHex(m);
    if (plain) replace(m, plain, 'hex');
  }
  for (const m of text.match(/[A-Za-z0-9+/_-]{8,}={0,2}/g) ?? []) {
    const plain = tryBase64(m);
    if (plain) replace(m, plain, 'base64');
  }
  for (const m of text.match(/(?:[.\-–—_]{1,6}[ /|]+){3,}[.\-–—_]{1,6}/g) ?? []) {
    if (!/\./.test(m) || !/[-–—_]/.test(m)) continue;
    const plain = tryMorse(m);
    if (plain) replace(m, plain, 'morse');
  }
  if (decoded.length === before) break;
  }

  // Character-level transforms (rot13, reversal, leetspeak, spread-out letters, ...), tried on the
  // whole message, its lines, the text after a colon, quoted strings and runs of non-words. The reading
  // kept is the one that makes the whole message read most like English; repeated for nested payloads.
  for (let round = 0; round < 4 && text.length <= 6000; round++) {
    const base = englishness(text);
    let best: { seg: string; out: string; encoding: string; score: number } | null = null;
    for (const seg of candidateSegments(text)) {
      if (englishness(seg) >= 0.55) continue;
      for (const t of TEXT_TRANSFORMS) {
        const out = t.fn(seg);
        if (!out || out === seg || englishness(out) < 0.6) continue;
        const score = englishness(text.replace(seg, out));
        if (!best || score > best.score + 1e-9) best = { seg, out, encoding: t.encoding, score };
      }
    }
    if (!best || best.score < base + 0.05) break;
    replace(best.seg, best.out, best.encoding);
  }

  // Word by word: leetspeak and shuffled inner letters.
  text = text.replace(/[A-Za-z0-9@$!|+]+/g, (tok) => {
    if (isWord(tok) || /^\d+$/.test(tok)) return tok;
    const core = tok.replace(/!+$/, '');
    const leet = deleetToken(core);
    if (leet) return leet + tok.slice(core.length);
    return unscramble(tok) ?? tok;
  });
  return { text, decoded, framing };
}

// ---------------------------------------------------------------- answer forms

export type AnswerForm =
  | { kind: 'base64' }
  | { kind: 'hex' }
  | { kind: 'binary' }
  | { kind: 'rot13' }
  | { kind: 'reversed' }
  | { kind: 'leetspeak' }
  | { kind: 'url-encoded' }
  | { kind: 'spaced'; separator: string }
  | { kind: 'per-line' };

export function applyForm(s: string, form: AnswerForm): string {
  switch (form.kind) {
    case 'base64':
      return Buffer.from(s, 'utf8').toString('base64');
    case 'hex':
      return Buffer.from(s, 'utf8').toString('hex');
    case 'binary':
      return [...Buffer.from(s, 'utf8')].map((b) => b.toString(2).padStart(8, '0')).join(' ');
    case 'rot13':
      return rot13(s);
    case 'reversed':
      return reverse(s);
    case 'leetspeak':
      return s.replace(/[aeiost]/gi, (c) => ({ a: '4', e: '3', i: '1', o: '0', s: '5', t: '7' })[c.toLowerCase()] ?? c);
    case 'url-encoded':
      return encodeURIComponent(s);
    case 'spaced':
      return [...s].join(form.separator);
    case 'per-line':
      return [...s].join('\n');
  }
}

export function describeForm(form: AnswerForm): string {
  switch (form.kind) {
    case 'spaced':
      return form.separator.trim() === '' ? 'with a space between the characters' : `with "${form.separator.trim()}" between the characters`;
    case 'per-line':
      return 'one character per line';
    case 'reversed':
      return 'written backwards';
    case 'url-encoded':
      return 'URL-encoded';
    default:
      return `in ${form.kind}`;
  }
}
