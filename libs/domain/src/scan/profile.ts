/** How much work a scan does: a smoke test, the whole catalogue with escalation, or the widest search. */
export const PROFILES = ['quick', 'standard', 'deep'] as const;
export type Profile = (typeof PROFILES)[number];
