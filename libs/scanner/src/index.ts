export * from './chat-driver';
export * from './probes';
export * from './converters';
export * from './detectors';
export * from './attacker';
export * from './engine';
export * from './drivers';
export * from './monitor/agent-judge';
