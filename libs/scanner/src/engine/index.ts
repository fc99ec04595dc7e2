export * from './types';
export * from './plan';
export * from './escalation';
export * from './findings';
export { runScan, stableId } from './run-scan';
export { Judge, JudgedConversation, Judgement } from './judge';
export * from './request-plan';
export { agentToolsToPlan } from './agent-tools';
