import { createHash } from 'node:crypto';

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/**
 * An account's id is derived from its email, so "this email is taken" is enforced by the event
 * store itself (append with expected revision no_stream) without a second, non-atomic
 * reservation stream. Shaped as an RFC 9562 version 8 (custom) UUID.
 */
export function accountIdFor(email: string): string {
  const h = createHash('sha256').update(`gauntlet:account:${normaliseEmail(email)}`).digest();
  h[6] = (h[6] & 0x0f) | 0x80;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
