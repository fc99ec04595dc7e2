/** What a secret is, which decides how the exposure oracle reads it and where a leak of it falls in OWASP. */
export type SecretKind = 'person' | 'credential' | 'internal_code' | 'canary' | 'instructions';

/** OWASP LLM Top 10 (2025): personal data and credentials are LLM02, the instructions and what only they hold LLM07. */
export type ExposureCategory = 'LLM02:2025' | 'LLM07:2025';

/** One thing the lab holds and must not say, as tests and benches know it (never sent to the scanner by the lab). */
export interface LabSecret {
  label: string;
  kind: SecretKind;
  value: string;
  category: ExposureCategory;
}
