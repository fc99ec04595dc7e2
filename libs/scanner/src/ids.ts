import { hash } from 'node:crypto';

/** A stable UUID-shaped id from scan-local parts, so a retried write is recognised as the same. */
export function stableId(...parts: string[]): string {
  const h = hash('sha256', parts.join('\u0000'), 'hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
