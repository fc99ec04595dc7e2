/**
 * The service's messages in the CLI's words. The engine's rules and diagnoses speak the API's
 * fields (scan_mode, api_format, http) and of "the Gauntlet server"; a CLI user has --browser,
 * --format, --body-template/--response-path (browser:, format:, http: in gauntlet.yaml) and no
 * server: the scan runs on their machine.
 */
const SERVER: [RegExp, string][] = [
  [/\bon the Gauntlet server\b/g, 'on this machine'],
  [/\bfrom the Gauntlet server\b/g, 'from this machine'],
  [/\bthe Gauntlet server\b/g, 'this machine'],
];

/** the same, for a problem of a gauntlet.yaml target: its keys (format, browser, http) */
const CONFIG: [RegExp, string][] = [
  [/\bwhen scan_mode is api\b/g, 'unless browser is set'],
  [/\bwhen scan_mode is browser\b/g, 'when browser is set'],
  [/\bregister it with scan_mode browser\b/g, 'set browser: true'],
  [/\bscan_mode\b/g, 'browser'],
  [/\bSet api_format to ([\w-]+)/g, 'Set format: $1'],
  [/\bapi_format\b/g, 'format'],
  [/\bhttp \{body_template, response_path\}/g, 'http: {body_template, response_path}'],
  ...SERVER,
];

const PHRASES: [RegExp, string][] = [
  [/\bwhen scan_mode is api\b/g, 'without --browser'],
  [/\bwhen scan_mode is browser\b/g, 'with --browser'],
  [/\bregister it with scan_mode browser\b/g, 'scan it with --browser (browser: true in gauntlet.yaml)'],
  [/\bscan_mode\b/g, '--browser'],
  [/\bSet api_format to ([\w-]+)/g, 'Use --format $1 (format: $1 in gauntlet.yaml)'],
  [/\bapi_format\b/g, '--format'],
  [/\bhttp \{body_template, response_path\}/g, '--body-template and --response-path (http: in gauntlet.yaml)'],
  [/\bhttp\.body_template\b/g, '--body-template'],
  [/\bhttp\.response_path\b/g, '--response-path'],
  ...SERVER,
];

/** in flags (a target given on the command line, the scan's own messages), or in gauntlet.yaml's keys */
export function inCliWords(text: string, words: 'flags' | 'config' = 'flags'): string {
  return (words === 'config' ? CONFIG : PHRASES).reduce((t, [pattern, replacement]) => t.replace(pattern, replacement), text);
}

/** a target field as gauntlet.yaml names it (format, browser, http.body_template), for config problems */
export function configField(field: string): string {
  return field.replace(/^api_format\b/, 'format').replace(/^scan_mode\b/, 'browser').replace(/^api_key\b/, 'api_key');
}

/** a target field as the command line sets it, for problems of a target given by flags */
export function flagOf(field: string): string {
  const flags: Record<string, string> = {
    url: 'the url', api_format: '--format', scan_mode: '--browser', model: '--model', api_key: '--api-key-env', headers: '--header',
    canaries: '--canary', sensitive: '--sensitive', name: '--name', http: '--body-template and --response-path',
    'http.body_template': '--body-template', 'http.response_path': '--response-path',
  };
  return flags[field] ?? flags[field.split('.')[0]] ?? field;
}
