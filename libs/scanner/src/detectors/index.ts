export * from './detector';
export * from './text';
export * from './refusal';
export * from './rules';
export * from './llm-judge';
export * from './registry';
