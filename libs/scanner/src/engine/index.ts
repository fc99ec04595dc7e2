export * from './types';
export * from './plan';
export { runScan, stableId } from './run-scan';
