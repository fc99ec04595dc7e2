import { createHash } from 'node:crypto';

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** the key of an email's reservation stream: the email itself stays out of stream names */
export const emailHashFor = (email: string) => createHash('sha256').update(`gauntlet:email:${normaliseEmail(email)}`).digest('hex');

/**
 * The id accounts registered before email reservations got: derived from the email (predictable,
 * which is why new accounts get a random one). Still needed to find those accounts, whose ids
 * do not change, when an email is registered again. An RFC 9562 version 8 (custom) UUID.
 */
export function accountIdFor(email: string): string {
  const h = createHash('sha256').update(`gauntlet:account:${normaliseEmail(email)}`).digest();
  h[6] = (h[6] & 0x0f) | 0x80;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
