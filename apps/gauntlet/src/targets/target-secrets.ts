import type { SecretBox } from '@gauntlet/auth';
import { customHeaders, HeaderPairs } from '@gauntlet/domain';

/** Custom headers are sealed as one JSON object: their names and values leave the request only as ciphertext. */
export function sealHeaders(secrets: SecretBox, headers: HeaderPairs | null | undefined): string | null {
  return headers && headers.length ? secrets.seal(JSON.stringify(customHeaders(headers))) : null;
}

/** opened into a record with no inherited keys: a header named `constructor` is only a header */
export function openHeaders(secrets: SecretBox, sealed: string | null | undefined): Record<string, string> | null {
  return sealed ? customHeaders(JSON.parse(secrets.open(sealed)) as Record<string, string>) : null;
}

/** the names of the headers given, as the api shows them */
export const headerNames = (headers: HeaderPairs | null | undefined): string[] => (headers ?? []).map(([name]) => name);
