export * from './document-store';
export * from './caching-document-store';
export * from './projections';
export * from './projector';
export * from './document-checkpoints';
export * from './sqlite/sqlite-document-store';
export * from './mongo/mongo-document-store';
