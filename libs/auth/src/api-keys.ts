import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API keys look like `gk_<prefix>_<secret>`: the prefix (public, 10 chars) finds the key's record,
 * the secret (32 random bytes) is only ever stored as its SHA-256 (a fast hash is right for
 * high-entropy secrets) and compared in constant time.
 */
export interface GeneratedApiKey {
  key: string;
  prefix: string;
  hash: string;
}

export function generateApiKey(): GeneratedApiKey {
  const prefix = randomBytes(8).toString('base64url').replace(/[-_]/g, 'x').slice(0, 10);
  const secret = randomBytes(32).toString('base64url');
  const key = `gk_${prefix}_${secret}`;
  return { key, prefix, hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function parseApiKey(key: string): { prefix: string } | null {
  const m = /^gk_([A-Za-z0-9]{10})_([A-Za-z0-9_-]{43})$/.exec(key);
  return m ? { prefix: m[1] } : null;
}

export function apiKeyMatches(key: string, storedHash: string): boolean {
  const a = Buffer.from(hashApiKey(key), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
