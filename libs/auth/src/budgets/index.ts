export * from './budget-store';
export * from './leased-budget';
export * from './sqlite-budget-store';
export * from './mongo-budget-store';
