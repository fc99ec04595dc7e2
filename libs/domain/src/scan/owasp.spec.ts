import { OWASP_LLM_TOP10_2025, owaspCategory, owaspCategoryName } from './owasp';

describe('OWASP catalogue', () => {
  it('maps the ten 2025 categories one to one onto the ten 2026 ids', () => {
    expect(OWASP_LLM_TOP10_2025.map((c) => c.id)).toEqual([...Array(10)].map((_, i) => `LLM${String(i + 1).padStart(2, '0')}:2025`));
    expect(OWASP_LLM_TOP10_2025.map((c) => c.successor2026.id).sort()).toEqual([...Array(10)].map((_, i) => `LLM${String(i + 1).padStart(2, '0')}:2026`));
  });
  it('follows the 2026 renumbering (standards.md)', () => {
    expect(owaspCategory('LLM03:2026')?.name).toBe('Excessive Agency');
    expect(owaspCategory('LLM08:2026')).toMatchObject({ id: 'LLM07:2025', successor2026: { name: 'Hidden Context Exposure' } });
    expect(owaspCategory('LLM10:2026')?.id).toBe('LLM05:2025');
    expect(owaspCategory('llm1:2025')?.id).toBe('LLM01:2025');
    expect(owaspCategory('LLM01:2023')).toBeUndefined();
  });
  it('names a category in the edition its id is written in, and nothing else', () => {
    expect(owaspCategoryName('LLM06:2025')).toBe('Excessive Agency');
    expect(owaspCategoryName('LLM03:2026')).toBe('Excessive Agency');
    expect(owaspCategoryName('LLM07:2025')).toBe('System Prompt Leakage');
    expect(owaspCategoryName('LLM08:2026')).toBe('Hidden Context Exposure');
    expect(owaspCategoryName('llm7:2025')).toBe('System Prompt Leakage');
    expect(owaspCategoryName('LLM00:2025')).toBeUndefined();
  });
  it('cites each category by its own page', () => {
    expect(new Set(OWASP_LLM_TOP10_2025.map((c) => c.page)).size).toBe(10);
    expect(owaspCategory('LLM01:2025')?.page).toBe('https://genai.owasp.org/llmrisk/llm01-prompt-injection/');
  });
});
