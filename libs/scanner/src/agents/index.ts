export * from './tool-kinds';
export * from './tool-set';
export * from './decoy';
export * from './owner';
export * from './mcp';
export * from './registry';
export * from './markers';
export * from './runtime';
