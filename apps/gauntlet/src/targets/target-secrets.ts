import type { SecretBox } from '@gauntlet/auth';

/** Custom headers are sealed as one JSON object: their names and values leave the request only as ciphertext. */
export function sealHeaders(secrets: SecretBox, headers: Record<string, string> | null | undefined): string | null {
  return headers && Object.keys(headers).length ? secrets.seal(JSON.stringify(headers)) : null;
}

export function openHeaders(secrets: SecretBox, sealed: string | null | undefined): Record<string, string> | null {
  return sealed ? (JSON.parse(secrets.open(sealed)) as Record<string, string>) : null;
}
