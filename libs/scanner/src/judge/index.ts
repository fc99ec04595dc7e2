export * from './transcript-line';
export * from './transcript-probes';
export * from './transcripts';
export * from './session';
