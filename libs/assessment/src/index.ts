export * from './scoring';
export * from './integrity';
export * from './compliance';
export * from './report-model';
export * from './triage';
