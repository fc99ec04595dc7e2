import { MAX_HITS } from './max-hits';

// what looks like a credential in a text: the secrets rule and the candidates for held values read with it

const SECRET_PATTERNS: [string, RegExp][] = [
  ['anthropic-api-key', /\bsk-ant-[A-Za-z0-9_-]{20,}/g],
  ['openai-api-key', /\bsk-(?!ant-)(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}/g],
  ['aws-access-key-id', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g],
  ['github-token', /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b/g],
  ['slack-token', /\bxox[abposr]-[A-Za-z0-9-]{10,}/g],
  ['stripe-live-key', /\b(?:sk|rk)_live_[A-Za-z0-9]{16,}/g],
  ['google-api-key', /\bAIza[0-9A-Za-z_-]{35}\b/g],
  ['private-key', /-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?-----/g],
  ['jwt', /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g],
  ['connection-string-password', /\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:[^\s@/]{3,}@[^\s'"]+/gi],
  ['password-in-config', /\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|client[_-]?secret)["']?\s*[:=]\s*["']?([^\s"',;<>]{6,})/gi],
];
const PLACEHOLDER = /^(?:x+|\*+|\.+|your|example|changeme|redacted|<)|(?:your_|_here|example)/i;

/** `keep` drops a hit before it counts (what we sent ourselves proves nothing) */
export function findSecrets(text: string, keep: (value: string) => boolean = () => true): { kind: string; value: string }[] {
  const found: { kind: string; value: string }[] = [];
  for (const [kind, re] of SECRET_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const value = m[1] ?? m[0];
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
