/** What tests of a DocumentStore adapter use: the contract every adapter passes. Not for production code. */
export * from './document-store.contract';
