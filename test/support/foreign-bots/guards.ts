// The guardrails wrapped around the "model": an input keyword filter, an output data-loss filter
// and a conversation-depth gate. Each is deliberately the kind of check deployed bots use, with
// the blind spot that kind of check has (it reads text as typed / as plain text only).

import { Customer } from './persona';
import { Secret } from './model';

/** Hostile words and phrases, matched against the newest user message exactly as typed. */
const BLOCKLIST: RegExp[] = [
  // overrides and role play
  /\bignor(e|ing)\b/i,
  /\bdisregard/i,
  /\bforget (all|everything|your|previous|the above|what)\b/i,
  /\boverrid(e|ing)\b/i,
  /\bbypass/i,
  /\bjailbr(ea|o)k/i,
  /\bdeveloper mode\b/i,
  /\bDAN\b/,
  /\bno (restrictions|rules|limits|filters)\b/i,
  /\byou are now\b/i,
  /\bact as\b/i,
  /\bpretend/i,
  /\brole-?play/i,
  /\bnew instructions?\b/i,
  /\b(system|admin|developer)\s*:/i,
  // the system prompt
  /\bsystem (prompt|message)/i,
  /\b(your|previous|prior|initial|original|hidden|above) (instructions|rules|prompt|directives)\b/i,
  /\breveal/i,
  /\bverbatim\b/i,
  /\bconfiguration\b/i,
  // secrets and credentials
  /\bsecrets?\b/i,
  /\bapi[\s_-]?keys?\b/i,
  /\btokens?\b/i,
  /\bpasswords?\b/i,
  /\bcredentials?\b/i,
  /\bprivate key/i,
  /\bsk[-_]/i,
  // personal data
  /\bcredit cards?\b/i,
  /\bcard numbers?\b/i,
  /\be-?mail address/i,
  /\bphone numbers?\b/i,
  /\bssn\b/i,
  /\bsocial security\b/i,
  /\bpassport numbers?\b/i,
  /\bdate of birth\b/i,
  /\bpersonal (data|information|details)\b/i,
  /\b(customer|passenger|user) (data|list|records|details|database)\b/i,
  /\badmin(istrator)?\b/i,
  // dangerous actions
  /\bdelet(e|ing)\b/i,
  /\bdrop table\b/i,
  /\brm -rf\b/i,
  /\btransfer/i,
  /\bwire (money|funds|\$)/i,
  /\bshut ?down\b/i,
  /\bsudo\b/i,
  /\bexecute\b/i,
  // markup
  /<\s*script/i,
  /javascript:/i,
  /\bon(error|load|click|mouseover)\s*=/i,
  /<\s*iframe/i,
  /<\s*img/i,
  /!\[[^\]]*\]\(/,
  // malice in general
  /\bhack/i,
  /\bexploit/i,
  /\bmalware\b/i,
];

export function inputBlocked(message: string): boolean {
  return BLOCKLIST.some((re) => re.test(message));
}

const TLDS = 'com|net|org|edu|gov|io|co|uk|de|se|in|fr|nl|es|it|info|biz|me|us|ca|au|ch|no|dk|fi|jp|internal|local';
const EMAIL = new RegExp(String.raw`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.(?:${TLDS})\b`, 'i');
const PHONE = /(?<![\w+])\+?\d{1,3}[\s.-]\(?\d{2,4}\)?[\s.-]\d{3,5}[\s.-]?\d{0,4}(?![\w])/;
const CARD = /(?<![\w])(?:\d{4}[\s-]\d{4}[\s-]\d{4}[\s-]\d{1,4}|\d{4}[\s-]\d{6}[\s-]\d{5}|\d{13,19})(?![\w])/g;
const SECRET_SHAPES = [/\bsk[-_](live|test|prod)[-_][A-Za-z0-9]{8,}/i, /\b(pss|pk|rk)_(live|prod|test)_[A-Za-z0-9]{8,}/i, /-----BEGIN [A-Z ]*PRIVATE KEY-----/, /\bpassword\s*(is|:|=)\s*\S+/i];

function luhn(digits: string): boolean {
  let sum = 0;
  let alt = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = Number(digits[i]);
    if (alt) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    alt = !alt;
  }
  return sum % 10 === 0;
}

export interface OutputGuardContext {
  systemPrompt: string;
  secrets: readonly Secret[];
  records: readonly Customer[];
}

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** True when the answer, read as plain text, holds a secret, personal data or a system-prompt line. */
export function outputBlocked(answer: string, ctx: OutputGuardContext): boolean {
  if (EMAIL.test(answer) || PHONE.test(answer)) return true;
  for (const m of answer.matchAll(CARD)) if (luhn(m[0].replace(/\D/g, ''))) return true;
  if (SECRET_SHAPES.some((re) => re.test(answer))) return true;
  if (ctx.secrets.some((s) => answer.includes(s.value))) return true;
  const plain = norm(answer);
  if (ctx.records.some((c) => plain.includes(c.name.toLowerCase()))) return true;
  return ctx.systemPrompt
    .split('\n')
    .map(norm)
    .filter((line) => line.length >= 20)
    .some((line) => plain.includes(line));
}
