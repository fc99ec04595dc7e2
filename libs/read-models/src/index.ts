export * from './document-store';
export * from './projections';
export * from './projector';
export * from './checkpointed-subscription';
