import { charClass, runEnd } from '../linear';
import { MAX_HITS } from './max-hits';

// what looks like a credential in a text: the secrets rule and the candidates for held values read with it

/** A pattern over a text, or the matches it makes (left to right, not overlapping) when a pattern alone would not read the text in linear time. */
type SecretPattern = RegExp | ((text: string) => Iterable<RegExpMatchArray | { 0: string; index: number }>);

const JWT_RUN = /[A-Za-z0-9_-]*/y;

/**
 * `\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`, each part read to the end of its
 * run (the class holds no dot, so that is where the pattern ends it too). A start that fails fails for
 * every `eyJ` later in the same run, whose rest is skipped: as a pattern, `eyJ-eyJ-eyJ-...` is read
 * again from each, and a long run is read twice (once to its end, once backtracking).
 */
export function* jwts(text: string): Generator<{ 0: string; index: number }> {
  const starts = /\beyJ/g;
  for (let start = starts.exec(text); start; start = starts.exec(text)) {
    const first = runEnd(text, start.index + 3, JWT_RUN);
    let end = -1;
    if (first - start.index - 3 >= 8 && text.startsWith('.eyJ', first)) {
      const second = runEnd(text, first + 4, JWT_RUN);
      const third = second - first - 4 >= 8 && text[second] === '.' ? runEnd(text, second + 1, JWT_RUN) : second;
      if (third - second - 1 >= 8) end = third;
    }
    if (end < 0) {
      starts.lastIndex = first;
      continue;
    }
    yield { 0: text.slice(start.index, end), index: start.index };
    starts.lastIndex = end;
  }
}

const SCHEME_CHAR = charClass(/[a-z0-9+.-]/i);
const LETTER = charClass(/[a-z]/i);
const WORD = charClass(/\w/);
const AFTER_SCHEME = /[^\s:@/]+:[^\s@/]{3,}@[^\s'"]+/y;

/**
 * `\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:[^\s@/]{3,}@[^\s'"]+` (any case), found from each `://`: the
 * scheme is the run before it from its first letter that begins a word, the rest is read once after
 * it. As a pattern, a run of scheme characters without `://` (`a.a.a.a...`) is read from each word in it.
 */
export function* connectionStrings(text: string): Generator<{ 0: string; index: number }> {
  let taken = 0;
  for (let at = text.indexOf('://'); at >= 0; at = text.indexOf('://', Math.max(at + 1, taken))) {
    let first = at;
    while (first > taken && SCHEME_CHAR(text.charCodeAt(first - 1))) first--;
    let start = first;
    while (start < at && !(LETTER(text.charCodeAt(start)) && (start === 0 || !WORD(text.charCodeAt(start - 1))))) start++;
    if (start === at) continue;
    AFTER_SCHEME.lastIndex = at + 3;
    if (!AFTER_SCHEME.exec(text)) continue;
    taken = AFTER_SCHEME.lastIndex;
    yield { 0: text.slice(start, taken), index: start };
  }
}

const SECRET_PATTERNS: [string, SecretPattern][] = [
  ['anthropic-api-key', /\bsk-ant-[A-Za-z0-9_-]{20,}/g],
  ['openai-api-key', /\bsk-(?!ant-)(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}/g],
  ['aws-access-key-id', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g],
  ['github-token', /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b/g],
  ['slack-token', /\bxox[abposr]-[A-Za-z0-9-]{10,}/g],
  ['stripe-live-key', /\b(?:sk|rk)_live_[A-Za-z0-9]{16,}/g],
  ['google-api-key', /\bAIza[0-9A-Za-z_-]{35}\b/g],
  ['private-key', /-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?-----/g],
  ['jwt', jwts],
  ['connection-string-password', connectionStrings],
  ['password-in-config', /\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|client[_-]?secret)["']?\s*[:=]\s*["']?([^\s"',;<>]{6,})/gi],
];
const PLACEHOLDER = /^(?:x+|\*+|\.+|your|example|changeme|redacted|<)|(?:your_|_here|example)/i;

/** `keep` drops a hit before it counts (what we sent ourselves proves nothing) */
export function findSecrets(text: string, keep: (value: string) => boolean = () => true): { kind: string; value: string }[] {
  const found: { kind: string; value: string }[] = [];
  for (const [kind, re] of SECRET_PATTERNS) {
    for (const m of typeof re === 'function' ? re(text) : text.matchAll(re)) {
      const value = (m as RegExpMatchArray)[1] ?? m[0];
      if (kind === 'password-in-config' && PLACEHOLDER.test(value)) continue;
      // one secret matched by two patterns (a key inside a password= line) is one finding
      if (found.some((f) => f.value.includes(value) || value.includes(f.value))) continue;
      if (!keep(m[0])) continue;
      found.push({ kind, value: m[0] });
      if (found.length >= MAX_HITS) return found;
    }
  }
  return found;
}
