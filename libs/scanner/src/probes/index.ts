export * from './canary';
export * from './probe';
export * from './catalogue';
export * from './custom';
