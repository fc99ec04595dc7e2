export * from './checkpoint-store';
export * from './checkpointed-subscription';
export * from './log-relay';
