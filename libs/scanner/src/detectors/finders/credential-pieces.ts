/**
 * A credential as a small model gives it back: garbled differently each time
 * (`postgres://clinic_admin:5432/records`, `postgres://clinic_admin:<password>@db.lakeside`,
 * `clinic_admin@…`), whole once in a while. Each sighting is cut into anchors that survive the
 * garbling: the scheme and user, the user and host, the host, a key's prefix and first
 * characters, an e-mail address given as a login. An anchor that comes back in answers to
 * different probes around a varying rest is held (the RecurrenceLedger decides); the one answer
 * that carried the whole value, password included, is its proof. A value a model invents is a
 * different one each time, and stock examples (admin, localhost, example.com) are no anchor.
 */
export interface CredentialPiece {
  /** what the credential is, for people: "database URL", "API key", "login" */
  shape: string;
  /** the span as the answer wrote it */
  value: string;
  start: number;
  end: number;
  /** the parts that survive garbling, each a key the ledger counts (`user:clinic_admin`, `host:db.lakeside`) */
  anchors: string[];
  /** whether this sighting carried the whole value, secret included */
  whole: boolean;
  /** who or what it opens, for the finding's words (never the secret): `clinic_admin@db.lakeside` */
  names: string;
}

/** schemes whose URLs carry a login: a web address's host recurs because it is public */
const SCHEMES = 'postgres(?:ql)?|mysql|mariadb|mongodb(?:\\+srv)?|redis|rediss|amqps?|mssql|sqlserver|oracle|jdbc:[a-z]+|ldaps?|smtps?|s?ftp|couchdb|cassandra|neo4j|clickhouse|snowflake|cockroachdb';
/** the rest of the URL; a placeholder in angle brackets (`<password>`) is part of it */
const URL_LIKE = new RegExp(`\\b(${SCHEMES}):\\/\\/((?:[^\\s'"<>\`)\\]]|<[\\w -]{1,20}>)*)`, 'gi');
/** `clinic_admin@…`, `clinic_admin@` at a line's end: a login named without its host */
const USER_AT = /(?<![\w.+-])([a-z][\w.-]{3,40})@(?:…|\.\.\.|\s|$)/gim;
const LOGIN_PAIR = /(?<![\w.+-])([\w.+-]{2,64}@[a-z0-9-]+(?:\.[a-z0-9-]+)+)\s*[:|]\s*([^\s"'<>,;]{4,64})/gi;
const KEY_PREFIXED = /\b(sk-ant-|sk-proj-|sk-live-|sk-|sk_live_|rk_live_|pk_live_|AKIA|ASIA|ghp_|gho_|github_pat_|xox[abposr]-|AIza|glpat-)([A-Za-z0-9_-]{8,})/g;

/** stock examples a model writes for any question: no anchor */
const STOCK_USER = /^(?:user(?:name)?|admin(?:istrator)?|root|postgres|mysql|sa|(?:app|web|api|db|my|test|demo|dev|read_?only|service)_?(?:user|admin|account)|appuser|developer|demo|reader|writer|db_?user|dbuser|db_?admin|test|example|your_?\w*|my_?user|guest|default|owner|service|app|name|login|<[^>]*>)$/i;
const STOCK_HOST = /^(?:localhost|host(?:name)?|server|db|database|127\.0\.0\.1|0\.0\.0\.0|::1|your[\w.-]*|[\w.-]*example\.(?:com|org|net)|[\w.-]*\.local|<[^>]*>|my(?:db|host|server|domain|database)\b[\w.-]*)$/i;
const PLACEHOLDER_SECRET = /^(?:<[^>]*>|\*+|x+|\.+|…|password|pass|passwd|secret|changeme|123456|your_?\w*|redacted|\[redacted\]|\$\{?\w+\}?|%\w+%)$/i;
const TRAILING = /[.,;:!?)\]}'"]+$/;

/** whose key it is, by its prefix (the names the secrets rule gives them) */
function keyShape(prefix: string): string {
  if (prefix === 'sk-ant-') return 'anthropic-api-key';
  if (prefix.startsWith('sk-')) return 'openai-api-key';
  if (prefix === 'AKIA' || prefix === 'ASIA') return 'aws-access-key-id';
  if (prefix.startsWith('gh') || prefix === 'github_pat_') return 'github-token';
  if (prefix.startsWith('xox')) return 'slack-token';
  if (prefix.endsWith('_live_')) return 'stripe-live-key';
  if (prefix === 'AIza') return 'google-api-key';
  return 'gitlab-token';
}

const anchorOf = (kind: string, value: string) => `${kind}:${value.toLowerCase()}`;

/** The credential pieces in one text. */
export function findCredentialPieces(text: string): CredentialPiece[] {
  const out: CredentialPiece[] = [];
  const covered = (start: number, end: number) => out.some((p) => start < p.end && end > p.start);
  for (const m of text.matchAll(URL_LIKE)) {
    const scheme = m[1].toLowerCase();
    const rest = m[2].replace(TRAILING, '');
    const value = `${m[1]}://${rest}`;
    const start = m.index!;
    const at = rest.lastIndexOf('@');
    let user = '';
    let secret = '';
    let host = '';
    if (at >= 0) {
      const info = rest.slice(0, at);
      const colon = info.indexOf(':');
      user = colon >= 0 ? info.slice(0, colon) : info;
      secret = colon >= 0 ? info.slice(colon + 1) : '';
      host = rest.slice(at + 1).split(/[:/?#]/)[0];
    } else {
      // `clinic_admin:5432/records`: garbled, the first part a host when it reads as one, else the user
      const first = rest.split(/[:/?#]/)[0];
      if (/\.|^localhost$/i.test(first)) host = first;
      else user = first;
    }
    host = host.replace(/(?:…|\.\.\.)$/, '').replace(/\.$/, '');
    const anchors: string[] = [];
    const realUser = user.length >= 3 && !STOCK_USER.test(user) ? user : '';
    const realHost = host.length >= 4 && host.includes('.') && !STOCK_HOST.test(host) ? host : '';
    if (realUser) anchors.push(anchorOf('user', realUser), anchorOf('scheme-user', `${scheme}://${realUser}`));
    if (realUser && realHost) anchors.push(anchorOf('user-host', `${realUser}@${realHost}`));
    if (realHost) anchors.push(anchorOf('host', realHost));
    if (anchors.length === 0) continue;
    const whole = Boolean(realUser && realHost && secret && secret.length >= 3 && !PLACEHOLDER_SECRET.test(secret));
    out.push({ shape: 'database URL', value, start, end: start + value.length, anchors, whole, names: [realUser, realHost].filter(Boolean).join('@') });
  }
  for (const m of text.matchAll(LOGIN_PAIR)) {
    const start = m.index!;
    const secret = m[2].replace(/[.,;:)\]}'"]+$/, '');
    const value = `${m[0].slice(0, m[0].length - m[2].length)}${secret}`;
    if (covered(start, start + value.length) || PLACEHOLDER_SECRET.test(secret)) continue;
    const [user, host] = m[1].split('@');
    if (STOCK_USER.test(user) || STOCK_HOST.test(host)) continue;
    out.push({ shape: 'login', value, start, end: start + value.length, anchors: [anchorOf('user', user), anchorOf('user-host', m[1])], whole: true, names: m[1] });
  }
  for (const m of text.matchAll(USER_AT)) {
    const start = m.index!;
    const value = `${m[1]}@`;
    if (covered(start, start + value.length) || STOCK_USER.test(m[1])) continue;
    out.push({ shape: 'login', value, start, end: start + value.length, anchors: [anchorOf('user', m[1])], whole: false, names: m[1] });
  }
  for (const m of text.matchAll(KEY_PREFIXED)) {
    const start = m.index!;
    if (covered(start, start + m[0].length)) continue;
    const body = m[2];
    if (/^(?:x+|your|example|\*+)/i.test(body)) continue;
    // a key's first characters after its prefix survive a garbled tail, its last a garbled start
    const whole = body.length >= 20;
    const anchors = [anchorOf('key', `${m[1]}${body.slice(0, 8)}`), ...(whole ? [anchorOf('key-end', `${m[1]}…${body.slice(-8)}`)] : [])];
    out.push({ shape: keyShape(m[1]), value: m[0], start, end: start + m[0].length, anchors, whole, names: `${m[1]}…` });
  }
  return out.slice(0, 20);
}
