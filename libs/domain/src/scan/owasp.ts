import type { OwaspCategoryId } from './vulnerability';

/**
 * OWASP Top 10 for LLM Applications. Gauntlet's primary edition is 2025; the 2026 edition
 * renumbers the same risks (and renames System Prompt Leakage into the broader Hidden Context
 * Exposure), so every 2025 category carries its 2026 successor. Ids are always edition-qualified:
 * bare "LLM07" means a different risk in each edition.
 */
export interface OwaspCategory {
  id: OwaspCategoryId;
  name: string;
  /** its page in the 2025 edition, which probes and findings cite */
  page: string;
  /** the same risk in the 2026 edition */
  successor2026: { id: OwaspCategoryId; name: string };
}

export const OWASP_PRIMARY_EDITION = '2025';

const PAGES = 'https://genai.owasp.org/llmrisk';

export const OWASP_LLM_TOP10_2025: readonly OwaspCategory[] = [
  { id: 'LLM01:2025', name: 'Prompt Injection', page: `${PAGES}/llm01-prompt-injection/`, successor2026: { id: 'LLM01:2026', name: 'Prompt Injection' } },
  { id: 'LLM02:2025', name: 'Sensitive Information Disclosure', page: `${PAGES}/llm022025-sensitive-information-disclosure/`, successor2026: { id: 'LLM02:2026', name: 'Sensitive Information Disclosure' } },
  { id: 'LLM03:2025', name: 'Supply Chain', page: `${PAGES}/llm032025-supply-chain/`, successor2026: { id: 'LLM04:2026', name: 'Supply Chain' } },
  { id: 'LLM04:2025', name: 'Data and Model Poisoning', page: `${PAGES}/llm042025-data-and-model-poisoning/`, successor2026: { id: 'LLM05:2026', name: 'Data and Model Poisoning' } },
  { id: 'LLM05:2025', name: 'Improper Output Handling', page: `${PAGES}/llm052025-improper-output-handling/`, successor2026: { id: 'LLM10:2026', name: 'Improper Output Handling' } },
  { id: 'LLM06:2025', name: 'Excessive Agency', page: `${PAGES}/llm062025-excessive-agency/`, successor2026: { id: 'LLM03:2026', name: 'Excessive Agency' } },
  { id: 'LLM07:2025', name: 'System Prompt Leakage', page: `${PAGES}/llm072025-system-prompt-leakage/`, successor2026: { id: 'LLM08:2026', name: 'Hidden Context Exposure' } },
  { id: 'LLM08:2025', name: 'Vector and Embedding Weaknesses', page: `${PAGES}/llm082025-vector-and-embedding-weaknesses/`, successor2026: { id: 'LLM09:2026', name: 'Vector and Embedding Weaknesses' } },
  { id: 'LLM09:2025', name: 'Misinformation', page: `${PAGES}/llm092025-misinformation/`, successor2026: { id: 'LLM07:2026', name: 'Misinformation' } },
  { id: 'LLM10:2025', name: 'Unbounded Consumption', page: `${PAGES}/llm102025-unbounded-consumption/`, successor2026: { id: 'LLM06:2026', name: 'Unbounded Consumption' } },
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
  return byId.get(canonicalId(id));
}

const canonicalId = (id: string) => id.trim().toUpperCase().replace(/^LLM(\d):/, 'LLM0$1:');

/** The id scores and compliance are keyed by: the 2025 id when known, else the id as given. */
export function canonicalCategoryId(id: string): string {
  return owaspCategory(id)?.id ?? id;
}

/**
 * A category's name in the edition its id is written in ("LLM08:2026" -> Hidden Context Exposure,
 * "LLM07:2025" -> System Prompt Leakage), or undefined for an id of neither edition.
 */
export function owaspCategoryName(id: string): string | undefined {
  const c = owaspCategory(id);
  return c && (c.id === canonicalId(id) ? c.name : c.successor2026.name);
}
