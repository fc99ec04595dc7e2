export * from './address-policy';
export * from './guarded-dispatcher';
export * from './guarded-proxy';
export * from './own-listeners';
export * from './free-port';
