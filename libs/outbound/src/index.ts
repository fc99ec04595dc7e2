export * from './address-policy';
export * from './guarded-dispatcher';
