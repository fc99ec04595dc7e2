import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { API_FORMATS, ApiFormat, BUDGET_FIELD_NAMES, BUDGET_FIELDS, BudgetField, budgetOf, budgetProblem, budgetValueFromText, CustomProbe, toolsFlags, toolsFromFlag, OWASP_LLM_TOP10_2025, ProbeSelection, PROFILES, Profile, ScanBudget } from '@gauntlet/domain';
import { probeById, UNTESTABLE_CATEGORIES, userPatternProblem } from '@gauntlet/scanner';
import type { ConfigProbe, ConfigTarget, GauntletConfig } from '../config/gauntlet-config';
import { CliError } from '../io';
import type { TargetSpec } from './local-service';
import { reportFormatOf } from './report-files';
import type { ScanGate } from './verdict';

/** `gauntlet scan`'s options as commander hands them over */
export interface ScanFlags {
  format?: string;
  model?: string;
  apiKeyEnv?: string;
  header?: string[];
  canary?: string[];
  sensitive?: string[];
  profile?: string;
  browser?: boolean;
  bodyTemplate?: string;
  responsePath?: string;
  name?: string;
  report?: string[];
  failUnder?: string;
  failOn?: string;
  allowPartial?: boolean;
  dataDir?: string;
  config?: string;
  private?: boolean;
  timeout?: string;
  categories?: string;
  probes?: string;
  /** the callback listener's public address when the target is remote (default: CALLBACK_BASE_URL, else the loopback listener's) */
  callbackUrl?: string;
  /** where the callback listener listens, host:port (default 127.0.0.1 on a free port) */
  callbackListen?: string;
  /** a domain whose names reach the listener (default CALLBACK_DOMAIN): probes plant e-mail domains under it */
  callbackDomain?: string;
  /** where the DNS listener answers for that domain, [host:]port (UDP; host 127.0.0.1 by default); none: no DNS listener */
  callbackDns?: string;
  // the tools flags (`tools`, `mcp`, `mcpCommand`) are their owner's: toolsFlags in the domain
  /** print each scan's plan and scan nothing */
  plan?: boolean;
  /** with --plan: one JSON object a target, one a line */
  json?: boolean;
  /** with --plan: measure the target's pace with one request */
  measurePace?: boolean;
  /** the budget's fields, as typed (BUDGET_FIELDS: --max-requests, --max-tokens, --max-cost, --price-in, --price-out) */
  maxRequests?: string;
  maxTokens?: string;
  maxCost?: string;
  priceIn?: string;
  priceOut?: string;
}

/** the property commander gives a budget field's option: --max-requests is maxRequests */
export const budgetFlagKey = (field: BudgetField) => BUDGET_FIELDS[field].flag.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof ScanFlags & string;

/** the budget the command line gives, each field checked by its owner (a problem names the flag) */
function budgetFromFlags(flags: ScanFlags): Partial<ScanBudget> {
  const budget: Partial<ScanBudget> = {};
  for (const field of BUDGET_FIELD_NAMES) {
    const text = flags[budgetFlagKey(field)];
    if (typeof text !== 'string') continue;
    const read = budgetValueFromText(field, text);
    if ('problem' in read) throw new CliError(`${BUDGET_FIELDS[field].flag} ${read.problem}`);
    budget[field] = read.value;
  }
  return budget;
}

/**
 * A target's budget: the command line's, then the target's own in gauntlet.yaml, then the file's;
 * the whole checked by its owner (max_cost needs both prices), in the words of where it came from.
 */
export function budgetFor(flags: Partial<ScanBudget>, target: Partial<ScanBudget>, file: Partial<ScanBudget>, fromFile: boolean): ScanBudget | null {
  const merged: Partial<ScanBudget> = {};
  for (const field of BUDGET_FIELD_NAMES) merged[field] = flags[field] ?? target[field] ?? file[field];
  const budget = budgetOf(merged);
  const problem = budget && budgetProblem(budget);
  if (problem) throw new CliError(fromFile ? problem.message : problem.message.replace(/\b(max_requests|max_tokens|max_cost|price_in|price_out)\b/g, (f) => BUDGET_FIELDS[f as BudgetField].flag));
  return budget;
}

/** One target to scan, with what to write afterwards. */
export interface PlannedScan {
  target: TargetSpec;
  profile: Profile;
  reports: string[];
  /** what its scan may spend, and the prices (null: no budget) */
  budget: ScanBudget | null;
}

export interface ScanPlan {
  scans: PlannedScan[];
  /** only these categories or probes; undefined: the profile's every probe */
  selection?: ProbeSelection;
  gate: ScanGate;
  dataDir: string | null;
}

function profileOf(text: string | undefined, fallback: Profile): Profile {
  if (text === undefined) return fallback;
  if (!(PROFILES as readonly string[]).includes(text)) throw new CliError(`--profile must be one of ${PROFILES.join(', ')}`);
  return text as Profile;
}

function gateOf(flags: ScanFlags, config: GauntletConfig | null): ScanGate {
  let failUnder: number | null = config?.fail_under ?? null;
  if (flags.failUnder !== undefined) {
    if (!/^\d{1,3}$/.test(flags.failUnder) || Number(flags.failUnder) > 100) throw new CliError('--fail-under must be an integer from 0 to 100');
    failUnder = Number(flags.failUnder);
  }
  const failOn = flags.failOn ?? config?.fail_on ?? null;
  if (failOn !== null && failOn !== 'new' && failOn !== 'high') throw new CliError('--fail-on must be new or high');
  return { failUnder, failOn, allowPartial: flags.allowPartial ?? config?.allow_partial ?? false };
}

/** `LLM01` or `LLM01:2025`, checked against the catalogue; probe ids likewise */
export function selectionOf(categories: string[] | undefined, probes: string[] | undefined, custom: ConfigProbe[] = []): ProbeSelection | undefined {
  const written = customProbesOf(custom);
  if (!categories?.length && !probes?.length) return written.length ? { custom: written } : undefined;
  const untestable = new Set<string>(UNTESTABLE_CATEGORIES.map((c) => c.category));
  const known = OWASP_LLM_TOP10_2025.map((c) => c.id as string).filter((c) => !untestable.has(c));
  const cats = (categories ?? []).map((c) => {
    const id = /^LLM\d\d$/i.test(c.trim()) ? `${c.trim().toUpperCase()}:2025` : c.trim().toUpperCase();
    if (untestable.has(id)) throw new CliError(`category ${c}: ${UNTESTABLE_CATEGORIES.find((u) => u.category === id)!.reason}`);
    if (!known.includes(id)) throw new CliError(`unknown category ${c}: use one of ${known.map((k) => k.replace(':2025', '')).join(', ')}`);
    return id;
  });
  for (const p of probes ?? []) if (!probeById(p)) throw new CliError(`unknown probe ${p}: the probe ids are in docs/scanning.md (e.g. pi-001)`);
  return { ...(cats.length && { categories: [...new Set(cats)] }), ...(probes?.length && { probes: [...new Set(probes)] }), ...(written.length && { custom: written }) };
}

/** the file's probes as the engine takes them: ids unique, categories qualified and testable, patterns that compile */
export function customProbesOf(list: ConfigProbe[]): CustomProbe[] {
  const seen = new Set<string>();
  return list.map((p) => {
    const id = `custom-${p.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
    if (seen.has(id)) throw new CliError(`custom probe ${p.name}: another custom probe has the same name`);
    seen.add(id);
    const category = /:/.test(p.category) ? p.category.toUpperCase() : `${p.category.toUpperCase()}:2025`;
    if (UNTESTABLE_CATEGORIES.some((u) => u.category === category)) throw new CliError(`custom probe ${p.name}: category ${p.category} is not testable from outside`);
    const problem = p.success?.pattern ? userPatternProblem(p.success.pattern) : null;
    if (problem) throw new CliError(`custom probe ${p.name}: success.pattern ${problem}`);
    return { id, category, severity: p.severity, title: p.title ?? p.name, turns: p.turns ?? [p.prompt!], ...(p.success?.pattern && { pattern: p.success.pattern }) };
  });
}

const list = (text: string | undefined) => text?.split(',').map((s) => s.trim()).filter(Boolean);

/** `Name: value` */
function headersOf(list: string[] = []): Record<string, string> | undefined {
  if (!list.length) return undefined;
  const headers: Record<string, string> = {};
  for (const h of list) {
    const i = h.indexOf(':');
    // the value is a secret (a gateway's key): the message names the header, never its value
    if (i <= 0) throw new CliError(`--header must be "Name: value" (one was given without a name before a colon; its text is not shown)`);
    headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  return headers;
}

/** `label=value` */
function sensitiveOf(list: string[] = []): { label: string; value: string }[] | undefined {
  if (!list.length) return undefined;
  return list.map((s) => {
    const i = s.indexOf('=');
    // what is written there is the secret itself: the message shows the label at most, never the value
    if (i <= 0) throw new CliError(`--sensitive must be "label=value": one was given without a label (its value is not shown)`);
    if (i === s.length - 1) throw new CliError(`--sensitive must be "label=value": one was given with nothing after the "=" (its text is not shown)`);
    return { label: s.slice(0, i), value: s.slice(i + 1) };
  });
}

/** the name a target gets when none is given: its address without the scheme */
export const nameFromUrl = (url: string) => url.replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, '').slice(0, 200) || url;

export function targetSpec(t: ConfigTarget): TargetSpec {
  // a target's budget is its scan's (PlannedScan.budget), not part of its registration
  const browser = t.browser === true || (typeof t.browser === 'object' && t.browser !== null);
  return {
    name: t.name ?? nameFromUrl(t.url),
    url: t.url,
    scan_mode: browser ? 'browser' : 'api',
    ...(browser ? (typeof t.browser === 'object' ? { browser: t.browser } : {}) : { api_format: t.format ?? 'openai' }),
    ...(t.model !== undefined && { model: t.model }),
    ...(t.api_key !== undefined && { api_key: t.api_key }),
    ...(t.headers !== undefined && { headers: t.headers }),
    ...(t.canaries !== undefined && { canaries: t.canaries }),
    ...(t.sensitive !== undefined && { sensitive: t.sensitive }),
    ...(t.http !== undefined && { http: t.http }),
    ...(t.max_requests_per_second !== undefined && { max_requests_per_second: t.max_requests_per_second }),
    ...(t.tools !== undefined && { tools: t.tools }),
  } as TargetSpec;
}

/** the target named on the command line, in gauntlet.yaml's words */
export function targetFromFlags(url: string, flags: ScanFlags, env: Record<string, string | undefined>): ConfigTarget {
  if (flags.format !== undefined && !(API_FORMATS as readonly string[]).includes(flags.format)) throw new CliError(`--format must be one of ${API_FORMATS.join(', ')}`);
  let api_key: string | undefined;
  if (flags.apiKeyEnv !== undefined) {
    api_key = env[flags.apiKeyEnv];
    if (!api_key) throw new CliError(`--api-key-env ${flags.apiKeyEnv}: that environment variable is not set`);
  }
  // --format http's two settings come together (gauntlet.yaml's http: {body_template, response_path})
  if ((flags.bodyTemplate === undefined) !== (flags.responsePath === undefined)) {
    throw new CliError(`${flags.bodyTemplate === undefined ? '--body-template' : '--response-path'} is needed too: --format http takes both --body-template and --response-path`);
  }
  const http = flags.bodyTemplate !== undefined ? { body_template: flags.bodyTemplate, response_path: flags.responsePath! } : undefined;
  return {
    url, ...(flags.name && { name: flags.name }), ...(http && { http }), ...(flags.format && { format: flags.format as ApiFormat }), ...(flags.model && { model: flags.model }),
    ...(api_key && { api_key }), ...(flags.browser && { browser: true }),
    headers: headersOf(flags.header), canaries: flags.canary?.length ? flags.canary : undefined, sensitive: sensitiveOf(flags.sensitive),
    ...toolsOf(flags),
  };
}

/** the flag's name as commander keeps its value: `--mcp-command` as `mcpCommand` */
const flagKey = (flag: string) => flag.replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** the tools flags, as the setting's owner gives them (toolsFlags: `--tools`, `--mcp-command`, `--mcp`): at most one of them */
function toolsOf(flags: ScanFlags): Pick<ConfigTarget, 'tools'> {
  const all = toolsFlags().map((f) => f.flag);
  const given = all.flatMap((flag) => {
    const value = (flags as Record<string, unknown>)[flagKey(flag)];
    return typeof value === 'string' ? [{ flag, value }] : [];
  });
  if (given.length > 1) throw new CliError(`give one of ${all.slice(0, -1).join(', ')} and ${all[all.length - 1]}`);
  if (!given.length) return {};
  const read = toolsFromFlag(given[0].flag, given[0].value, (file) => JSON.parse(readFileSync(file, 'utf8')));
  if ('problem' in read) throw new CliError(read.problem);
  return { tools: read.setting };
}

/** with several targets each writes its own files: {target} in a name, or the target's name before the extension */
export function reportFilesFor(files: string[], targetName: string, several: boolean): string[] {
  const slug = targetName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'target';
  return files.map((f) => {
    if (f.includes('{target}')) return f.split('{target}').join(slug);
    if (!several) return f;
    const ext = f.toLowerCase().endsWith('.sarif.json') ? '.sarif.json' : extname(f);
    return `${f.slice(0, f.length - ext.length)}-${slug}${ext}`;
  });
}

/** What `gauntlet scan` will do: the url on the command line, or every target of gauntlet.yaml. */
export function planScans(url: string | undefined, flags: ScanFlags, config: GauntletConfig | null, env: Record<string, string | undefined>): ScanPlan {
  const reports = flags.report?.length ? flags.report : config?.reports ?? [];
  for (const r of reports) reportFormatOf(r);
  const gate = gateOf(flags, config);
  const selection = selectionOf(list(flags.categories) ?? config?.categories, list(flags.probes) ?? config?.probes, config?.custom_probes);
  const targets = url !== undefined ? [targetFromFlags(url, flags, env)] : config?.targets ?? [];
  if (!targets.length) throw new CliError('nothing to scan: give a url (gauntlet scan http://localhost:11434 --format ollama --model llama3.2) or write a gauntlet.yaml');
  const several = targets.length > 1;
  const flagged = budgetFromFlags(flags);
  return {
    gate,
    ...(selection && { selection }),
    dataDir: flags.dataDir ?? config?.data_dir ?? null,
    scans: targets.map((t) => {
      const target = targetSpec(t);
      return {
        target, profile: profileOf(flags.profile, t.profile ?? config?.profile ?? 'standard'), reports: reportFilesFor(reports, target.name, several),
        budget: budgetFor(flagged, t, config ?? {}, url === undefined),
      };
    }),
  };
}
