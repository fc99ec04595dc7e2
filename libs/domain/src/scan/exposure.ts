import type { ExposedKind, ExposureChannel, FindingExposure } from './vulnerability';

/**
 * What leaked, once: every value the target holds that came out in a scan (a value its owner
 * told, a credential, a person's datum seen to recur), one entry each, with how often and how it
 * left, shown masked (never the value itself), and the finding that holds it. A finding records
 * the exposures it holds when it is written (facts computed once); the scan's list is those of its
 * findings, flattened (scanExposures), so a replay gives the same list.
 */

/** One value that came out in a scan, and the finding that holds it. */
export interface ScanExposure extends FindingExposure {
  vulnerability_id: string;
}

const KIND_ORDER: Record<ExposedKind, number> = { credential: 0, personal: 1, code: 2, wording: 3 };

/**
 * The scan's exposures from its findings (pure): each finding's, with its id; credentials first
 * (what must be rotated), then a person's data, codes, wording; each kind in the order it came out.
 */
export function scanExposures(findings: readonly { id: string; exposures?: readonly FindingExposure[] }[]): ScanExposure[] {
  return findings.flatMap((f) => (f.exposures ?? []).map((e) => ({ ...e, vulnerability_id: f.id }))).sort(exposureOrder);
}

/** the order every view lists exposures in: credentials first, then a person's data, codes, wording; each kind as it came out */
export const exposureOrder = (a: FindingExposure, b: FindingExposure): number =>
  KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.first_seen.localeCompare(b.first_seen) || a.shown.localeCompare(b.shown);

/** what a credential's or a datum's shape is called, as people say it */
const SHAPES: Record<string, string> = {
  'openai-api-key': 'OpenAI API key',
  'anthropic-api-key': 'Anthropic API key',
  'aws-access-key-id': 'AWS access key',
  'github-token': 'GitHub token',
  'slack-token': 'Slack token',
  'stripe-live-key': 'Stripe live key',
  'google-api-key': 'Google API key',
  'gitlab-token': 'GitLab token',
  'private-key': 'private key',
  jwt: 'JSON web token',
  'connection-string-password': 'connection string with its password',
  'password-in-config': 'password',
  email: 'e-mail address',
  phone: 'phone number',
  card: 'payment card number',
  'national-id': 'national id number',
  iban: 'IBAN',
};
export const shapeWords = (shape: string) => SHAPES[shape] ?? shape.replace(/-/g, ' ');
/** The exposure as one line, the same in every report and payload: `records database URL (a credential, whole): postgres://clinic_admin:***@…; rotate it` */
export function exposureLine(e: FindingExposure): string {
  const name = e.label ?? (e.shape ? shapeWords(e.shape) : KIND_WORDS[e.kind]);
  const how = e.via.length ? `, ${e.via.map((v) => CHANNEL_WORDS[v]).join(' and ')}` : '';
  return `${name} (${KIND_WORDS[e.kind]}${e.whole ? ', whole' : ', in part'}${how}): ${e.shown}, in ${e.conversations} conversation${e.conversations === 1 ? '' : 's'}${e.rotate ? '; rotate it' : ''}`;
}

export const KIND_WORDS: Readonly<Record<ExposedKind, string>> = { credential: 'a credential', personal: "a person's data", code: 'an internal code', wording: "the prompt's wording" };
export const CHANNEL_WORDS: Readonly<Record<ExposureChannel, string>> = {
  request: "sent to an attacker's address",
  link: 'put in a link its answer built',
  answer: 'said in an answer',
};

const KEY_PREFIX = /^(sk-ant-|sk-proj-|sk-live-|sk_live_|rk_live_|pk_live_|sk-|AKIA|ASIA|ghp_|gho_|github_pat_|xox[abposr]-|AIza|glpat-|eyJ)/;
const URL_LOGIN = /^([a-z][\w+.-]*:\/\/)([^:@/\s]*)(?::[^@\s]*)?@([^/\s:?#]+)/i;
const URL_GARBLED = /^([a-z][\w+.-]*:\/\/)([^:@/\s]+)/i;
const LOGIN_PAIR = /^([^\s@:]+@[^\s:]+):\S+$/;

const stars = '***';
const wordsOf = (text: string) => text.trim().split(/\s+/).filter(Boolean);

/**
 * A value as any view may show it (pure): what it is and whose, never enough of it to use. A
 * credential keeps its scheme, user and host or its key's prefix, never its secret; a name its
 * initials; an e-mail its first letter and domain; a number its last two digits; a code its first
 * two characters; the prompt's wording its first words.
 */
export function maskValue(value: string, kind: ExposedKind): string {
  const v = value.trim();
  if (kind === 'wording') {
    const words = wordsOf(v);
    return words.length <= 3 ? `${words[0]?.slice(0, 3) ?? ''}…` : `${words.slice(0, 3).join(' ')} …`;
  }
  const login = URL_LOGIN.exec(v);
  if (login) return `${login[1]}${login[2]}:${stars}@${login[3]}`;
  const pair = LOGIN_PAIR.exec(v);
  if (pair && kind === 'credential') return `${pair[1]}:${stars}`;
  const garbled = URL_GARBLED.exec(v);
  if (garbled && kind === 'credential') return `${garbled[1]}${garbled[2]}:${stars}`;
  const key = KEY_PREFIX.exec(v);
  if (key) return `${key[1]}${stars}`;
  if (/^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i.test(v)) return `${v[0]}${stars}@${v.slice(v.indexOf('@') + 1)}`;
  if (/^[A-Z]{2}\d{2}(?:\s?[A-Z0-9]){8,}$/i.test(v)) {
    // an IBAN: its country and check digits, the last two characters
    const compact = v.replace(/\s/g, '');
    return `${compact.slice(0, 4)} ${stars} ${compact.slice(-2)}`;
  }
  const digits = v.replace(/\D/g, '').length;
  if (digits >= 6 && digits / v.replace(/\s/g, '').length > 0.6) {
    // a number (a phone, a card): every digit but the last two
    let left = digits - 2;
    return v.replace(/\d/g, (d) => (left-- > 0 ? '*' : d));
  }
  if (kind === 'personal' && /^\p{L}/u.test(v) && wordsOf(v).length >= 2) return wordsOf(v).map((w) => `${w[0]}${stars}`).join(' ');
  if (kind === 'credential') return `${v.slice(0, Math.min(3, Math.floor(v.length / 4)))}${stars}`;
  return `${v.slice(0, Math.min(2, Math.floor(v.length / 3)))}${stars}`;
}
