import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What a planted address says, and nothing else: the scan and the attempt that planted it, and
 * which of its addresses it is. `fetch`: a page the attempt asked the target to read (the
 * listener answers it with the poisoned page); `steered`: the second address that page told the
 * target to load; `render`: an address the attempt asked the target to put in its answer (an
 * image, a link), loaded by whatever renders the answer; `domain`: a mail domain the attempt named
 * (the token in the host name: an e-mail address's domain has no path), looked up or reached by
 * whatever acted on the address.
 */
export const CALLBACK_STAGES = ['fetch', 'steered', 'render', 'domain'] as const;
export type CallbackStage = (typeof CALLBACK_STAGES)[number];

export interface CallbackClaim {
  scanId: string;
  attemptId: string;
  stage: CallbackStage;
}

/** 128 bits of MAC: a token cannot be guessed or forged, only copied from where it was planted. */
const MAC_BYTES = 16;
const VERSION = 1;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAX_ID_BYTES = 64;

/**
 * The key tokens are signed with, derived from the service's SECRETS_KEY (so every process of a
 * deployment verifies what another minted, and nothing else is derived from the same bytes).
 */
export function callbackKey(secretsKey: Buffer): Buffer {
  return createHmac('sha256', secretsKey).update('gauntlet/callback-token/v1').digest();
}

function packId(id: string): Buffer {
  if (UUID.test(id)) return Buffer.concat([Buffer.of(0), Buffer.from(id.replace(/-/g, ''), 'hex')]);
  const bytes = Buffer.from(id, 'utf8');
  if (bytes.length === 0 || bytes.length > MAX_ID_BYTES) throw new RangeError('a callback token names ids of 1 to 64 bytes');
  return Buffer.concat([Buffer.of(1, bytes.length), bytes]);
}

/** the id at `at` and where the next field starts; null when the bytes do not hold one */
function unpackId(b: Buffer, at: number): [string, number] | null {
  if (b[at] === 0) {
    if (b.length < at + 17) return null;
    const h = b.subarray(at + 1, at + 17).toString('hex');
    return [`${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`, at + 17];
  }
  if (b[at] === 1) {
    const len = b[at + 1];
    if (len === undefined || len === 0 || b.length < at + 2 + len) return null;
    return [b.subarray(at + 2, at + 2 + len).toString('utf8'), at + 2 + len];
  }
  return null;
}

const mac = (key: Buffer, body: Buffer) => createHmac('sha256', key).update(body).digest().subarray(0, MAC_BYTES);

/**
 * How a token is spelled where it is planted. `url`: base64url, one path segment. `host`: lowercase
 * base32 (DNS names are case-insensitive, and resolvers change the case of what they forward), in
 * labels of at most 63 characters, to stand under a domain (`<labels>.<CALLBACK_DOMAIN>`). One
 * token, two spellings of the same bytes and MAC.
 */
export type TokenEncoding = 'url' | 'host';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const MAX_LABEL = 63;
/** the longest name DNS carries, in its dotted form */
export const MAX_HOST_NAME = 253;

function base32(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return bits ? out + BASE32[(value << (5 - bits)) & 31] : out;
}

/** the bytes of lowercase unpadded base32; null for a character outside it */
function unbase32(text: string): Buffer | null {
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of text) {
    const digit = BASE32.indexOf(ch);
    if (digit < 0) return null;
    value = (value << 5) | digit;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
    value &= (1 << bits) - 1;
  }
  return Buffer.from(out);
}

const labelsOf = (text: string) => text.match(new RegExp(`.{1,${MAX_LABEL}}`, 'g'))!.join('.');

function spell(bytes: Buffer, encoding: TokenEncoding): string {
  return encoding === 'url' ? bytes.toString('base64url') : labelsOf(base32(bytes));
}

/** the bytes a token spells, only from its canonical spelling: the same bytes written another way are not the planted address */
function bytesOf(token: string, encoding: TokenEncoding): Buffer | null {
  if (encoding === 'url') {
    if (token.length < 24 || token.length > 200 || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
    const bytes = Buffer.from(token, 'base64url');
    return bytes.toString('base64url') === token ? bytes : null;
  }
  // a host name's case is not the sender's to choose: read in lower case
  const name = token.toLowerCase();
  if (name.length < 24 || name.length > MAX_HOST_NAME || !/^[a-z2-7.]+$/.test(name)) return null;
  const bytes = unbase32(name.replace(/\./g, ''));
  return bytes && spell(bytes, 'host') === name ? bytes : null;
}

/**
 * A token for one address of one attempt: (version, stage, scan id, attempt id, MAC), spelled for
 * where it is planted (base64url for a path; base32 labels for a host name). Stateless: whoever
 * holds the key reads it back (verifyToken), in any process, after the scan ended too.
 * Deterministic: the same attempt and stage always get the same token, so a retried attempt plants
 * the same address.
 */
export function mintToken(key: Buffer, claim: CallbackClaim, encoding: TokenEncoding = 'url'): string {
  const body = Buffer.concat([Buffer.of(VERSION, CALLBACK_STAGES.indexOf(claim.stage)), packId(claim.scanId), packId(claim.attemptId)]);
  return spell(Buffer.concat([body, mac(key, body)]), encoding);
}

/**
 * What a token claims, when this key signed it; null for anything else (forged, cut, altered, not
 * a token). Without an encoding, either spelling is read (a hit records the token as it came).
 */
export function verifyToken(key: Buffer, token: string, encoding?: TokenEncoding): CallbackClaim | null {
  if (!encoding) return verifyToken(key, token, 'url') ?? verifyToken(key, token, 'host');
  const bytes = bytesOf(token, encoding);
  if (!bytes || bytes.length <= MAC_BYTES + 2) return null;
  const body = bytes.subarray(0, bytes.length - MAC_BYTES);
  if (!timingSafeEqual(mac(key, body), bytes.subarray(bytes.length - MAC_BYTES))) return null;
  if (body[0] !== VERSION) return null;
  const stage = CALLBACK_STAGES[body[1]];
  const scan = stage && unpackId(body, 2);
  const attempt = scan && unpackId(body, scan[1]);
  if (!stage || !scan || !attempt || attempt[1] !== body.length) return null;
  return { scanId: scan[0], attemptId: attempt[0], stage };
}

/**
 * The token a host name carries under `domain`, and the labels before it (data a sender put
 * there): the token is the labels right under the domain, as many as verify. Null when the name
 * is not under the domain or carries no token this key signed.
 */
export function tokenInHost(key: Buffer, host: string, domain: string): { token: string; claim: CallbackClaim; before: string } | null {
  const name = host.toLowerCase().replace(/\.$/, '');
  const zone = domain.toLowerCase().replace(/\.$/, '');
  if (!zone || !name.endsWith(`.${zone}`) || name.length > MAX_HOST_NAME) return null;
  const labels = name.slice(0, -zone.length - 1).split('.');
  // a token of ids up to 64 bytes each spans at most 4 labels
  for (let n = 1; n <= Math.min(4, labels.length); n++) {
    const token = labels.slice(labels.length - n).join('.');
    const claim = verifyToken(key, token, 'host');
    if (claim) return { token, claim, before: labels.slice(0, labels.length - n).join('.') };
  }
  return null;
}
