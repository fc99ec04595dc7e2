import Ajv, { ErrorObject } from 'ajv';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import type { ApiFormat, Profile } from '@gauntlet/domain';
import { CliError } from '../io';

/** gauntlet.yaml as read: every ${ENV} resolved. */
export interface GauntletConfig {
  profile?: Profile;
  fail_under?: number;
  fail_on?: 'new' | 'high';
  allow_partial?: boolean;
  reports?: string[];
  data_dir?: string;
  categories?: string[];
  probes?: string[];
  custom_probes?: ConfigProbe[];
  targets: ConfigTarget[];
}

/** a probe written in the file */
export interface ConfigProbe {
  name: string;
  title?: string;
  category: string;
  severity: 'critical' | 'high' | 'medium' | 'low';
  prompt?: string;
  turns?: string[];
  success?: { pattern?: string };
}

export interface ConfigTarget {
  name?: string;
  url: string;
  format?: ApiFormat;
  model?: string;
  api_key?: string;
  headers?: Record<string, string>;
  canaries?: string[];
  sensitive?: { label: string; value: string }[];
  browser?: boolean | { input_selector?: string; send_selector?: string; response_selector?: string };
  http?: { body_template: string; response_path: string };
  max_requests_per_second?: number;
  profile?: Profile;
}

/** the files `gauntlet scan` and `gauntlet ci` look for when none is named, in this order */
export const CONFIG_FILES = ['gauntlet.yaml', 'gauntlet.yml', 'gauntlet.json'];

/** The schema shipped with the package (schemas/ at its root), found from here in the sources and in dist/ alike. */
export function schemaPath(from = __dirname): string {
  for (let dir = from, i = 0; i < 8; i++, dir = dirname(dir)) {
    const candidate = join(dir, 'schemas', 'gauntlet.schema.json');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error('schemas/gauntlet.schema.json is missing from the installation');
}

let validator: ReturnType<Ajv['compile']> | null = null;
function validate(value: unknown) {
  validator ??= new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(schemaPath(), 'utf8')));
  return validator(value) ? [] : validator.errors ?? [];
}

export function findConfigFile(cwd: string): string | null {
  for (const name of CONFIG_FILES) if (existsSync(join(cwd, name))) return join(cwd, name);
  return null;
}

/** `targets[0].format` from ajv's `/targets/0/format` */
const fieldName = (path: (string | number)[]) => path.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : s ? `${s}.${p}` : p), '') || '(top level)';

function describeError(e: ErrorObject): { path: (string | number)[]; message: string } {
  const path = e.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~')).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  switch (e.keyword) {
    case 'additionalProperty':
    case 'additionalProperties':
      return { path: [...path, e.params.additionalProperty], message: `is not a known field${path.length ? ` of ${fieldName(path)}` : ''}` };
    case 'required':
      return { path, message: `needs ${e.params.missingProperty}` };
    case 'enum':
      return { path, message: `must be one of ${(e.params.allowedValues as unknown[]).join(', ')}` };
    default:
      return { path, message: e.message ?? 'is not valid' };
  }
}

/**
 * Reads gauntlet.yaml (or .json: JSON is YAML), validates it against the shipped JSON Schema and
 * resolves ${ENV} references. A problem is one line naming the file, line, column and field.
 */
export function loadConfig(file: string, env: Record<string, string | undefined>): GauntletConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const at = (offset: number | undefined) => {
    if (offset === undefined) return file;
    const { line, col } = lines.linePos(offset);
    return `${file}:${line}:${col}`;
  };
  if (doc.errors.length) {
    const e = doc.errors[0];
    throw new CliError(`${at(e.pos[0])}: ${e.message.split('\n')[0]}`);
  }
  const value = doc.toJS();
  const problems = validate(value);
  if (problems.length) {
    // the most specific problem first: a wrong field inside a target says more than "targets[0] is invalid"
    const described = problems.filter((p) => p.keyword !== 'oneOf').map(describeError);
    const first = described.sort((a, b) => b.path.length - a.path.length)[0] ?? describeError(problems[0]);
    throw new CliError(`${at(offsetOf(doc, first.path))}: ${fieldName(first.path)} ${first.message}`);
  }
  return resolveEnv(value, [], (path, name) => {
    throw new CliError(`${at(offsetOf(doc, path))}: ${fieldName(path)} refers to \${${name}}, which is not set in the environment`);
  }, env) as GauntletConfig;
}

/**
 * file:line:column of the node at `path` in a config file, for problems found after it loaded
 * (the whole-file check of its targets against the service's rules, before the first request).
 */
export function configPosition(file: string, path: (string | number)[]): string {
  const lines = new LineCounter();
  const doc = parseDocument(readFileSync(file, 'utf8'), { lineCounter: lines, prettyErrors: false });
  const offset = offsetOf(doc, path);
  if (offset === undefined) return file;
  const { line, col } = lines.linePos(offset);
  return `${file}:${line}:${col}`;
}

/** where the node at `path` starts; for a key that should not be there, where the key is; else its nearest parent */
function offsetOf(doc: ReturnType<typeof parseDocument>, path: (string | number)[]): number | undefined {
  for (let n = path.length; n >= 0; n--) {
    const parent = n > 0 ? doc.getIn(path.slice(0, n - 1), true) : null;
    if (n > 0 && isMap(parent)) {
      const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === path[n - 1]);
      if (pair && isScalar(pair.key)) return pair.key.range?.[0];
    }
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    if (node && typeof node === 'object' && 'range' in node && node.range) return (node.range as number[])[0];
  }
  return undefined;
}

function resolveEnv(value: unknown, path: (string | number)[], missing: (path: (string | number)[], name: string) => never, env: Record<string, string | undefined>): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => env[name] ?? missing(path, name));
  }
  if (Array.isArray(value)) return value.map((v, i) => resolveEnv(v, [...path, i], missing, env));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveEnv(v, [...path, k], missing, env)]));
  return value;
}
