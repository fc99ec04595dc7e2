export * from './token';
export * from './listener';
export * from './http-server';
export * from './planting';
export * from './hearing';
export * from './callback-findings';
export * from './poisoned-page';
