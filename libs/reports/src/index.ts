export * from './common';
export * from './render';
export * from './formats';
export { toJunitXml, toSarif, xmlText, SARIF_LEVEL, SECURITY_SEVERITY, type CiScanResult } from './ci';
