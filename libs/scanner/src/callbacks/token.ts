import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What a planted address says, and nothing else: the scan and the attempt that planted it, and
 * which of its addresses it is. `fetch`: a page the attempt asked the target to read (the
 * listener answers it with the poisoned page); `steered`: the second address that page told the
 * target to load; `render`: an address the attempt asked the target to put in its answer (an
 * image, a link), loaded by whatever renders the answer.
 */
export const CALLBACK_STAGES = ['fetch', 'steered', 'render'] as const;
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
 * A token for one address of one attempt: base64url(version, stage, scan id, attempt id, MAC).
 * Stateless: whoever holds the key reads it back (verifyToken), in any process, after the scan
 * ended too. Deterministic: the same attempt and stage always get the same token, so a retried
 * attempt plants the same address.
 */
export function mintToken(key: Buffer, claim: CallbackClaim): string {
  const body = Buffer.concat([Buffer.of(VERSION, CALLBACK_STAGES.indexOf(claim.stage)), packId(claim.scanId), packId(claim.attemptId)]);
  return Buffer.concat([body, mac(key, body)]).toString('base64url');
}

/** What a token claims, when this key signed it; null for anything else (forged, cut, altered, not a token). */
export function verifyToken(key: Buffer, token: string): CallbackClaim | null {
  if (token.length < 24 || token.length > 200 || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  // only the canonical spelling: the same bytes written another way are not the planted address
  if (bytes.toString('base64url') !== token || bytes.length <= MAC_BYTES + 2) return null;
  const body = bytes.subarray(0, bytes.length - MAC_BYTES);
  if (!timingSafeEqual(mac(key, body), bytes.subarray(bytes.length - MAC_BYTES))) return null;
  if (body[0] !== VERSION) return null;
  const stage = CALLBACK_STAGES[body[1]];
  const scan = stage && unpackId(body, 2);
  const attempt = scan && unpackId(body, scan[1]);
  if (!stage || !scan || !attempt || attempt[1] !== body.length) return null;
  return { scanId: scan[0], attemptId: attempt[0], stage };
}
