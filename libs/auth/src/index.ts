export * from './secret-box';
export * from './passwords';
export * from './api-keys';
export * from './identity';
export * from './verified-tokens';
export * from './budgets';
