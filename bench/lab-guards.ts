/**
 * The lab's guard modes the benches scan in turn: no guard, each guardrail alone, all of them, and
 * the hardened lab (nothing to leak). `defenses` is the lab's --defenses list (apps/lab/src/guardrails.ts).
 */
export const LAB_GUARDS: Record<string, { defenses: string; hardened?: boolean }> = {
  none: { defenses: '' },
  input_keywords: { defenses: 'input_keywords' },
  output_secrets: { defenses: 'output_secrets' },
  'crescendo:3': { defenses: 'crescendo:3' },
  all: { defenses: 'input_normalised,output_secrets,crescendo:3' },
  hardened: { defenses: '', hardened: true },
};
