import type { SecretBox } from '@gauntlet/auth';
import { customHeaders, HeaderPairs, openTools as openToolsSetting, sealTools as sealToolsSetting, TargetTools } from '@gauntlet/domain';
import type { SensitiveLabel, SensitiveValue } from '@gauntlet/domain';

/** Custom headers are sealed as one JSON object: their names and values leave the request only as ciphertext. */
export function sealHeaders(secrets: SecretBox, headers: HeaderPairs | null | undefined): string | null {
  return headers && headers.length ? secrets.seal(JSON.stringify(customHeaders(headers))) : null;
}

/** opened into a record with no inherited keys: a header named `constructor` is only a header */
export function openHeaders(secrets: SecretBox, sealed: string | null | undefined): Record<string, string> | null {
  return sealed ? customHeaders(JSON.parse(secrets.open(sealed)) as Record<string, string>) : null;
}

/**
 * The owner's sensitive values are sealed as one JSON array; what stays readable is each label
 * with a fingerprint keyed per account (the same value in two accounts has unrelated ones), so a
 * read can say what is watched for without saying what it is.
 */
export function sealSensitive(secrets: SecretBox, accountId: string, values: SensitiveValue[] | null | undefined): { sensitive_encrypted: string | null; sensitive_labels: SensitiveLabel[] } {
  if (!values || values.length === 0) return { sensitive_encrypted: null, sensitive_labels: [] };
  const plain = values.map(({ label, value }) => ({ label, value }));
  return { sensitive_encrypted: secrets.seal(JSON.stringify(plain)), sensitive_labels: plain.map(({ label, value }) => ({ label, fingerprint: secrets.fingerprint(value, accountId) })) };
}

export function openSensitive(secrets: SecretBox, sealed: string | null | undefined): SensitiveValue[] {
  return sealed ? (JSON.parse(secrets.open(sealed)) as SensitiveValue[]) : [];
}
/** the names of the headers given, as the api shows them */
export const headerNames = (headers: HeaderPairs | null | undefined): string[] => (headers ?? []).map(([name]) => name);

/** the `tools` setting as the log keeps it, and as a scan opens it: their owner (target/target-tools.ts) with the service's key */
export const sealTools = (secrets: SecretBox, tools: unknown): TargetTools => sealToolsSetting(tools, secrets);
export const openTools = (secrets: SecretBox, tools: TargetTools | undefined) => openToolsSetting(tools, secrets);
