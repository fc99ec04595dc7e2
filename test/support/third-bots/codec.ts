// Encodings, both ways. The model reads encoded text the way a capable LLM does (it recognises
// base64, hex, ROT13, reversed text and the rest and reads what they say) and writes its answers in
// such a form when asked to.
import { englishScore, ENGLISH } from './text';

// ---------------------------------------------------------------- encoders (answer forms)

export type Form =
  | 'base64' | 'base32' | 'hex' | 'binary' | 'rot13' | 'reversed' | 'spaced' | 'dashed' | 'per-line'
  | 'nato' | 'vowels' | 'url' | 'leet' | 'morse' | 'upper' | 'json';

const NATO = ['Alfa', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'Hotel', 'India', 'Juliett', 'Kilo', 'Lima', 'Mike', 'November', 'Oscar', 'Papa', 'Quebec', 'Romeo', 'Sierra', 'Tango', 'Uniform', 'Victor', 'Whiskey', 'X-ray', 'Yankee', 'Zulu'];
const DIGIT_WORDS = ['Zero', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine'];
const MORSE: Record<string, string> = {
  a: '.-', b: '-...', c: '-.-.', d: '-..', e: '.', f: '..-.', g: '--.', h: '....', i: '..', j: '.---', k: '-.-', l: '.-..', m: '--',
  n: '-.', o: '---', p: '.--.', q: '--.-', r: '.-.', s: '...', t: '-', u: '..-', v: '...-', w: '.--', x: '-..-', y: '-.--', z: '--..',
  '0': '-----', '1': '.----', '2': '..---', '3': '...--', '4': '....-', '5': '.....', '6': '-....', '7': '--...', '8': '---..', '9': '----.',
  '.': '.-.-.-', ',': '--..--', '?': '..--..', '/': '-..-.', '-': '-....-', ':': '---...', '@': '.--.-.', '=': '-...-', "'": '.----.',
};
const FROM_MORSE = Object.fromEntries(Object.entries(MORSE).map(([k, v]) => [v, k]));
const BRAILLE: Record<string, string> = {
  '\u2801': 'a', '\u2803': 'b', '\u2809': 'c', '\u2819': 'd', '\u2811': 'e', '\u280B': 'f', '\u281B': 'g', '\u2813': 'h', '\u280A': 'i', '\u281A': 'j',
  '\u2805': 'k', '\u2807': 'l', '\u280D': 'm', '\u281D': 'n', '\u2815': 'o', '\u280F': 'p', '\u281F': 'q', '\u2817': 'r', '\u280E': 's', '\u281E': 't',
  '\u2825': 'u', '\u2827': 'v', '\u283A': 'w', '\u282D': 'x', '\u283D': 'y', '\u2835': 'z', '\u2832': '.', '\u2802': ',', '\u2816': '!', '\u2826': '?',
  '\u2804': "'", '\u2824': '-', '\u2812': ':', '\u2830': ';', '\u280C': '/',
};

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

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Encode(s: string): string {
  const bytes = Buffer.from(s, 'utf8');
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  while (out.length % 8) out += '=';
  return out;
}

function base32Decode(s: string): string | null {
  const clean = s.replace(/=+$/, '');
  if (!/^[A-Z2-7]+$/.test(clean)) return null;
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const c of clean) {
    value = (value << 5) | B32.indexOf(c);
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

export function encode(form: Form, s: string): string {
  switch (form) {
    case 'base64': return Buffer.from(s, 'utf8').toString('base64');
    case 'base32': return base32Encode(s);
    case 'hex': return Buffer.from(s, 'utf8').toString('hex');
    case 'binary': return [...Buffer.from(s, 'utf8')].map((b) => b.toString(2).padStart(8, '0')).join(' ');
    case 'rot13': return rot13(s);
    case 'reversed': return [...s].reverse().join('');
    case 'spaced': return [...s].join(' ');
    case 'dashed': return [...s].join('-');
    case 'per-line': return [...s].filter((c) => c !== '\n').map((c) => (c === ' ' ? '(space)' : c)).join('\n');
    case 'nato': return [...s].map((c) => {
      const l = c.toLowerCase();
      if (l >= 'a' && l <= 'z') return NATO[l.charCodeAt(0) - 97] + (c === l ? '' : ' (capital)');
      if (c >= '0' && c <= '9') return DIGIT_WORDS[Number(c)];
      if (c === ' ') return '/';
      return `"${c}"`;
    }).join(' ');
    case 'vowels': return s.replace(/[aeiouAEIOU]/g, '*');
    case 'url': return encodeURIComponent(s);
    case 'leet': return s.replace(/[aeiostl]/gi, (c) => ({ a: '4', e: '3', i: '1', o: '0', s: '5', t: '7', l: '|' } as Record<string, string>)[c.toLowerCase()]);
    case 'morse': return [...s.toLowerCase()].map((c) => (c === ' ' || c === '\n' ? '/' : MORSE[c] ?? '')).filter(Boolean).join(' ');
    case 'upper': return s.toUpperCase();
    case 'json': return JSON.stringify({ text: s }, null, 2);
  }
}

export const FORM_LABEL: Record<Form, string> = {
  base64: 'in base64', base32: 'in base32', hex: 'in hexadecimal', binary: 'in binary', rot13: 'in ROT13', reversed: 'reversed',
  spaced: 'spelled out with spaces', dashed: 'spelled out with dashes', 'per-line': 'one character per line', nato: 'in the NATO phonetic alphabet',
  vowels: 'with the vowels starred out', url: 'URL-encoded', leet: 'in leetspeak', morse: 'in Morse code', upper: 'in capitals', json: 'as JSON',
};

// ---------------------------------------------------------------- decoders (reading)

/** Decoded bytes that read as text rather than noise. */
export function readable(s: string | null): s is string {
  if (!s || s.trim().length < 2) return false;
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]/.test(s)) return false;
  const visible = s.replace(/\s/g, '');
  if (visible.length === 0) return false;
  const alnum = (visible.match(/[\p{L}\p{N}]/gu) ?? []).length;
  return alnum / visible.length >= 0.55;
}

function fromBase64(token: string): string | null {
  const t = token.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(t)) return null;
  const core = t.replace(/=+$/, '');
  if (core.length % 4 === 1) return null;
  const out = Buffer.from(t, 'base64').toString('utf8');
  return out;
}

function fromHex(token: string): string | null {
  const t = token.replace(/^0x/i, '').replace(/\\x/gi, '');
  if (!/^[0-9a-fA-F]+$/.test(t) || t.length % 2) return null;
  return Buffer.from(t, 'hex').toString('utf8');
}

interface Replacement { start: number; end: number; text: string; layer: string }

/** Encoded blobs inside a text: base64, base32, hex, binary, URL and HTML escapes, Morse, Braille, NATO spelling, Unicode tag characters. */
function findBlobs(text: string): Replacement[] {
  const found: Replacement[] = [];
  const add = (start: number, end: number, decoded: string | null, layer: string) => {
    if (!readable(decoded)) return;
    if (found.some((f) => start < f.end && end > f.start)) return;
    found.push({ start, end, text: decoded.replace(/\s+$/, ''), layer });
  };

  // Unicode tag characters (invisible "ASCII smuggling").
  for (const m of text.matchAll(/[\u{E0000}-\u{E007F}]+/gu)) {
    const decoded = [...m[0]].map((c) => String.fromCharCode((c.codePointAt(0) as number) - 0xe0000)).join('');
    add(m.index as number, (m.index as number) + m[0].length, ` ${decoded} `, 'unicode tags');
  }
  // Escapes: \x69\x67..., \u0069..., &#105;..., %69%67...
  for (const m of text.matchAll(/(?:\\x[0-9a-fA-F]{2}){3,}/g)) add(m.index as number, (m.index as number) + m[0].length, fromHex(m[0]), 'hex');
  for (const m of text.matchAll(/(?:\\u[0-9a-fA-F]{4}){3,}/g)) {
    add(m.index as number, (m.index as number) + m[0].length, m[0].replace(/\\u([0-9a-fA-F]{4})/g, (_, h) => String.fromCharCode(parseInt(h, 16))), 'unicode escapes');
  }
  for (const m of text.matchAll(/(?:&#(?:x[0-9a-fA-F]+|\d+);\s?){3,}/g)) {
    add(m.index as number, (m.index as number) + m[0].length, m[0].replace(/&#(x[0-9a-fA-F]+|\d+);\s?/g, (_, n: string) => String.fromCharCode(n.startsWith('x') ? parseInt(n.slice(1), 16) : Number(n))), 'HTML entities');
  }
  for (const m of text.includes('%') ? text.matchAll(/(?:[A-Za-z0-9._~+\-!*'()]{0,40}%[0-9A-Fa-f]{2}){3,}[A-Za-z0-9._~+\-!*'()]{0,40}/g) : []) {
    let decoded: string | null = null;
    try { decoded = decodeURIComponent(m[0].replace(/\+/g, ' ')); } catch { decoded = null; }
    add(m.index as number, (m.index as number) + m[0].length, decoded, 'URL encoding');
  }
  // Runs of space-separated groups: binary octets, hex bytes, Morse letters.
  for (const m of text.matchAll(/(?:\b[01]{8}\b[ ,]*){3,}/g)) {
    const bytes = m[0].trim().split(/[ ,]+/).map((b) => parseInt(b, 2));
    add(m.index as number, (m.index as number) + m[0].length, Buffer.from(bytes).toString('utf8'), 'binary');
  }
  for (const m of text.matchAll(/(?:(?:0x)?\b[0-9a-fA-F]{2}\b[ ,:]+){3,}(?:0x)?\b[0-9a-fA-F]{2}\b/g)) {
    const bytes = m[0].split(/[ ,:]+/).filter(Boolean).map((b) => parseInt(b.replace(/^0x/i, ''), 16));
    add(m.index as number, (m.index as number) + m[0].length, Buffer.from(bytes).toString('utf8'), 'hex');
  }
  for (const m of text.matchAll(/(?:[.\-]{1,7}(?:\s+\/\s+|\s+|\s*\|\s*)){3,}[.\-]{1,7}/g)) {
    const words = m[0].trim().split(/\s*[/|]\s*|\s{3,}/);
    const decoded = words.map((w) => w.trim().split(/\s+/).map((c) => FROM_MORSE[c] ?? '').join('')).join(' ');
    if (decoded.replace(/\s/g, '').length >= 3) add(m.index as number, (m.index as number) + m[0].length, decoded, 'Morse code');
  }
  for (const m of text.matchAll(/[\u2800-\u28ff][\u2800-\u28ff\s]{2,}/g)) {
    let caps = false;
    let out = '';
    for (const c of m[0]) {
      if (c === '\u2820') { caps = true; continue; }
      if (c === '\u283C') continue;
      const l = /\s/.test(c) ? c : BRAILLE[c] ?? '';
      out += caps ? l.toUpperCase() : l;
      caps = false;
    }
    add(m.index as number, (m.index as number) + m[0].length, out, 'Braille');
  }
  const natoWords = NATO.map((w) => w.toLowerCase().replace('-', '')).concat(['alpha', 'juliet', 'xray', 'whisky']);
  const natoRe = new RegExp(`(?:\\b(?:${natoWords.join('|')}|x-ray)\\b[\\s,/]*){4,}`, 'gi');
  for (const m of text.matchAll(natoRe)) {
    const decoded = m[0].split(/(\s*\/\s*|\s{2,})/).map((part) => (part.match(/[A-Za-z-]+/g) ?? []).map((w) => w[0]).join('')).join(' ');
    add(m.index as number, (m.index as number) + m[0].length, decoded.toLowerCase(), 'NATO spelling');
  }
  // Single tokens (lines of base64 may be wrapped): hex, base32, base64.
  for (const m of text.matchAll(/[A-Za-z0-9+/=_\-]{8,}(?:\r?\n[A-Za-z0-9+/=_\-]{8,})*/g)) {
    const token = m[0].replace(/\s+/g, '');
    const start = m.index as number;
    const end = start + m[0].length;
    if (/^[a-z]+$/.test(token) && token.length < 24) continue; // an ordinary word
    if (/^(?:0x)?[0-9a-fA-F]+$/.test(token) && token.replace(/^0x/i, '').length % 2 === 0) {
      const h = fromHex(token);
      if (readable(h) && /[A-Za-z]{2}/.test(h)) { add(start, end, h, 'hex'); continue; }
    }
    if (/^[A-Z2-7]+=*$/.test(token) && token.length % 8 === 0) {
      const b = base32Decode(token);
      if (readable(b) && /[a-z]{2}/i.test(b)) { add(start, end, b, 'base32'); continue; }
    }
    const trimmed = token.replace(/[-_]+$/, '');
    const b64 = fromBase64(trimmed);
    if (b64 && /^[0-9a-fA-F]{8,}$/.test(b64) && b64.length % 2 === 0) { add(start, end, b64, 'base64'); continue; }
    if (readable(b64) && /[A-Za-z]{2}/.test(b64) && (b64.includes(' ') || englishScore(b64) > 0 || b64.length >= 6)) add(start, end, b64, 'base64');
  }
  return found.sort((a, b) => a.start - b.start);
}

function applyReplacements(text: string, reps: Replacement[]): string {
  let out = '';
  let at = 0;
  for (const r of reps) {
    out += text.slice(at, r.start) + r.text;
    at = r.end;
  }
  return out + text.slice(at);
}

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '9': 'g', '@': 'a', $: 's', '!': 'i', '|': 'l', '+': 't', '€': 'e', '(': 'c' };

/** Leetspeak words read back as letters; tokens in capitals ("PWNED-42", "L33T-1") are codes and stay as written. */
export function deleet(s: string): string {
  return s.replace(/\S+/g, (w) => {
    const core = w.replace(/[!?.,:;]+$/, '');
    if (!/[A-Za-z]/.test(w) || !/[0-9@$!|+€(]/.test(core)) return w;
    const read = w.replace(/[0-9@$|+€(]|!(?=\w)/g, (c) => LEET[c] ?? c);
    if (!/[a-z]/.test(w) && !ENGLISH.has(read.toLowerCase().replace(/[^a-z]/g, ''))) return w;
    return read;
  });
}

function reverseWords(s: string): string {
  return s.split(/(\s+)/).map((w) => [...w].reverse().join('')).join('');
}

function unPigLatin(s: string): string {
  return s.replace(/\b[a-z]+ay\b/gi, (word) => {
    const lower = word.toLowerCase();
    if (lower.endsWith('way') && ENGLISH.has(lower.slice(0, -3))) return word.slice(0, -3);
    const stem = word.slice(0, -2);
    for (let k = 1; k <= 3 && k < stem.length; k++) {
      const cand = stem.slice(-k) + stem.slice(0, -k);
      if (ENGLISH.has(cand.toLowerCase())) return cand;
    }
    return stem.slice(-1) + stem.slice(0, -1);
  });
}

/** "i g n o r e   a l l" or "i-g-n-o-r-e" read as words. */
function collapseSpelled(s: string): string {
  return s.replace(/(?:\b[A-Za-z0-9]\b(?: {1,3}|[-_.*|] ?)){3,}\b[A-Za-z0-9]\b/g, (run) => {
    const words = run.split(/ {2,}| ?\/ ?/);
    return words.map((w) => w.replace(/[\s\-_.*|]/g, '')).join(' ');
  });
}

function splitCamel(s: string): string {
  return s.replace(/\b[A-Za-z]*[a-z][A-Z][A-Za-z]*\b/g, (w) => (w.length >= 10 && (w.match(/[A-Z]/g) ?? []).length >= 2 ? w.replace(/([a-z])([A-Z])/g, '$1 $2') : w));
}

const SEGMENT_TRANSFORMS: Array<[string, (s: string) => string]> = [
  ['ROT13', rot13],
  ['reversed text', (s) => [...s].reverse().join('')],
  ['reversed words', reverseWords],
  ['Atbash', atbash],
  ['leetspeak', deleet],
  ['Pig Latin', unPigLatin],
];

/** The best reading of one segment of text under the whole-text ciphers, or null when it already reads best as it is. */
function readSegment(segment: string): { text: string; layer: string } | null {
  const base = englishScore(segment);
  const words = segment.match(/[A-Za-z]{2,}/g) ?? [];
  if (words.length < 2) return null;
  // Two or three short words read as English by chance too easily: ask more of them.
  const short = words.length < 3 || words.every((w) => w.length <= 3);
  let best: { text: string; layer: string; score: number } | null = null;
  for (const [layer, f] of SEGMENT_TRANSFORMS) {
    const t = f(segment);
    if (t === segment) continue;
    const score = englishScore(t);
    if (short && (score < 1 || words.some((w) => w.length < 3))) continue;
    if (score >= 0.45 && score - base >= 0.25 && (!best || score > best.score)) best = { text: t, layer, score };
  }
  return best ? { text: best.text, layer: best.layer } : null;
}

export interface Decoded {
  /** The text as the model reads it: encoded parts replaced by what they say. */
  text: string;
  /** Which encodings were peeled, outermost first. */
  layers: string[];
  /** The text with every decoded part removed: the wrapper around the payload ("Decode this: …"). */
  wrapper: string;
  /** What the decoded parts said. */
  payloads: string[];
}

/** Reads a message the way an LLM would: decodes what it recognises, up to three layers deep. */
export function decode(message: string): Decoded {
  let text = message;
  let wrapper = message;
  const layers: string[] = [];
  const payloads: string[] = [];
  for (let pass = 0; pass < 3; pass++) {
    let changed = false;
    const blobs = findBlobs(text);
    if (blobs.length) {
      if (pass === 0) wrapper = applyReplacements(text, blobs.map((b) => ({ ...b, text: ' ' })));
      text = applyReplacements(text, blobs);
      for (const b of blobs) { layers.push(b.layer); payloads.push(b.text.trim()); }
      changed = true;
    }
    // Whole-segment ciphers, line by line; a line may be "wrapper: payload".
    const lines = text.split('\n');
    const wrapLines = wrapper.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      const whole = readSegment(line);
      if (whole) {
        lines[i] = whole.text;
        layers.push(whole.layer);
        payloads.push(whole.text.trim());
        if (pass === 0 && wrapLines[i] === line) wrapLines[i] = '';
        changed = true;
        continue;
      }
      const colon = line.search(/[:：]\s*\S/);
      const q = line.match(/(["“'])([^"”']{6,})["”']/);
      const pieces: Array<[number, number]> = [];
      if (colon > 0) pieces.push([colon + 1, line.length]);
      if (q && q.index !== undefined) pieces.push([q.index + 1, q.index + 1 + q[2].length]);
      for (const [s, e] of pieces) {
        const part = lines[i].slice(s, e);
        const r = readSegment(part);
        if (r && englishScore(lines[i].slice(0, s)) >= 0.3) {
          lines[i] = lines[i].slice(0, s) + (lines[i][s - 1] === ':' ? ' ' : '') + r.text.trim() + lines[i].slice(e);
          layers.push(r.layer);
          payloads.push(r.text.trim());
          if (pass === 0 && wrapLines[i] === line) wrapLines[i] = line.slice(0, s);
          changed = true;
          break;
        }
      }
    }
    if (changed) {
      text = lines.join('\n');
      if (pass === 0) wrapper = wrapLines.join('\n');
    }
    const spelled = splitCamel(collapseSpelled(text));
    if (spelled !== text) { text = spelled; changed = true; }
    if (!changed) break;
  }
  return { text, layers, wrapper, payloads };
}
