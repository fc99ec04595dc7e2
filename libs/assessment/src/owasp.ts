import { OwaspCategoryId } from '@gauntlet/domain';

/**
 * OWASP Top 10 for LLM Applications. Gauntlet's primary edition is 2025; the 2026 edition
 * renumbers the same risks (and renames System Prompt Leakage into the broader Hidden Context
 * Exposure), so every 2025 category carries its 2026 successor. Ids are always edition-qualified:
 * bare "LLM07" means a different risk in each edition.
 */
export interface OwaspCategory {
  id: OwaspCategoryId;
  name: string;
  /** the same risk in the 2026 edition */
  successor2026: { id: OwaspCategoryId; name: string };
}

export const OWASP_PRIMARY_EDITION = '2025';

export const OWASP_LLM_TOP10_2025: readonly OwaspCategory[] = [
  { id: 'LLM01:2025', name: 'Prompt Injection', successor2026: { id: 'LLM01:2026', name: 'Prompt Injection' } },
  { id: 'LLM02:2025', name: 'Sensitive Information Disclosure', successor2026: { id: 'LLM02:2026', name: 'Sensitive Information Disclosure' } },
  { id: 'LLM03:2025', name: 'Supply Chain', successor2026: { id: 'LLM04:2026', name: 'Supply Chain' } },
  { id: 'LLM04:2025', name: 'Data and Model Poisoning', successor2026: { id: 'LLM05:2026', name: 'Data and Model Poisoning' } },
  { id: 'LLM05:2025', name: 'Improper Output Handling', successor2026: { id: 'LLM10:2026', name: 'Improper Output Handling' } },
  { id: 'LLM06:2025', name: 'Excessive Agency', successor2026: { id: 'LLM03:2026', name: 'Excessive Agency' } },
  { id: 'LLM07:2025', name: 'System Prompt Leakage', successor2026: { id: 'LLM08:2026', name: 'Hidden Context Exposure' } },
  { id: 'LLM08:2025', name: 'Vector and Embedding Weaknesses', successor2026: { id: 'LLM09:2026', name: 'Vector and Embedding Weaknesses' } },
  { id: 'LLM09:2025', name: 'Misinformation', successor2026: { id: 'LLM07:2026', name: 'Misinformation' } },
  { id: 'LLM10:2025', name: 'Unbounded Consumption', successor2026: { id: 'LLM06:2026', name: 'Unbounded Consumption' } },
];

const byId = new Map<string, OwaspCategory>();
for (const c of OWASP_LLM_TOP10_2025) {
  byId.set(c.id, c);
  byId.set(c.successor2026.id, c);
}

/**
 * The 2025 category for an id of either supported edition ("LLM06:2026" -> LLM10:2025), or
 * undefined for anything else (the 2023 numbering, typos), which callers keep verbatim rather
 * than guess.
 */
export function owaspCategory(id: string): OwaspCategory | undefined {
  return byId.get(id.trim().toUpperCase().replace(/^LLM(\d):/, 'LLM0$1:'));
}

/** The id scores and compliance are keyed by: the 2025 id when known, else the id as given. */
export function canonicalCategoryId(id: string): string {
  return owaspCategory(id)?.id ?? id;
}
