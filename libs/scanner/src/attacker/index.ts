export * from './attacker';
export * from './llm-attacker';
