export * from './types';
export * from './plan';
export * from './escalation';
export * from './findings';
export { runScan, stableId } from './run-scan';
export * from './request-plan';
export { agentToolsToPlan } from './agent-tools';
