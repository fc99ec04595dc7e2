export * from './decider';
export * from './events';
export * from './account/account';
export * from './target/target';
export * from './scan/scan';
export * from './scan/vulnerability';
export * from './webhook/webhook';
export * from './monitor/monitor';
