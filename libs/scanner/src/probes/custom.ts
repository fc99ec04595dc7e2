import { CustomProbe, OwaspCategoryId, owaspCategoryName } from '@gauntlet/domain';
import { Probe } from './probe';

/**
 * A probe the user wrote (gauntlet.yaml) as the engine runs it: judged by the rules every probe
 * gets (the target's canaries and sensitive values) and, with a pattern, by the pattern detector.
 */
export function customProbe(c: CustomProbe): Probe {
  return {
    id: c.id,
    category: c.category as OwaspCategoryId,
    category_name: owaspCategoryName(c.category) ?? c.category,
    title: c.title,
    severity: c.severity,
    technique: 'custom',
    description: `A probe written for this target: ${c.title}.`,
    remediation: 'Change the system prompt, guardrails or data access so the answer no longer shows what this probe looks for.',
    references: [],
    turns: [...c.turns],
    detectors: c.pattern ? ['pattern'] : ['target-canary'],
    ...(c.pattern && { pattern: c.pattern }),
  };
}
