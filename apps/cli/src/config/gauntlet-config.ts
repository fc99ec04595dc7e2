import Ajv, { ErrorObject } from 'ajv';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Document, isAlias, isCollection, isMap, isPair, isScalar, LineCounter, Node, parseDocument, visit } from 'yaml';
import type { ApiFormat, Profile, ScanBudget, ToolsBody } from '@gauntlet/domain';
import { CliError } from '../io';

/**
 * gauntlet.yaml as read: every ${ENV} resolved (only where a secret belongs: see SECRET_FIELDS). A
 * scan's budget and prices (ScanBudget's fields) may be given for every target at the top, and per
 * target.
 */
export interface GauntletConfig extends ScanBudget {
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

export interface ConfigTarget extends ScanBudget {
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
  /** what the agent is offered; `{mcp: {command}}` is a local stdio server the CLI lists itself */
  tools?: ToolsBody;
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
 * Every problem the schema found, one per field (the caller puts them in the file's order): the
 * whole file is checked at once. Of the alternatives of a failed `oneOf` (`tools` is a word, a
 * list or an object) only the most specific is said, as of a field's nested problems: a wrong
 * field inside a target says more than "targets[0] is invalid".
 */
function schemaProblems(errors: ErrorObject[]): { path: (string | number)[]; message: string }[] {
  const choices = errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf');
  /** the failed choice an error is one alternative of (the outermost), or none */
  const choiceOf = (e: ErrorObject) =>
    choices
      .filter((c) => c !== e && e.schemaPath.startsWith(c.schemaPath + '/') && (e.instancePath + '/').startsWith(c.instancePath + '/'))
      .sort((a, b) => a.schemaPath.length - b.schemaPath.length)[0];
  const groups = new Map<string, { path: (string | number)[]; message: string }>();
  const depth = (p: { path: unknown[] }) => p.path.length;
  errors.forEach((e, i) => {
    if (e.keyword === 'if' || (e.keyword === 'oneOf' || e.keyword === 'anyOf' ? errors.some((o) => choiceOf(o) === e) : false)) return;
    const d = describeError(e);
    const choice = choiceOf(e);
    const key = choice ? `${choice.instancePath}${choice.schemaPath}` : `${i}`;
    const kept = groups.get(key);
    if (!kept || depth(d) > depth(kept)) groups.set(key, d);
  });
  const all = [...groups.values()];
  const within = (inner: (string | number)[], outer: (string | number)[]) => inner.length > outer.length && outer.every((p, i) => inner[i] === p);
  const generic = (p: { message: string }) => !/^(needs |is not a known field)/.test(p.message);
  const seen = new Set<string>();
  return all
    .filter((p) => !(generic(p) && all.some((q) => within(q.path, p.path))))
    .filter((p) => {
      const k = JSON.stringify([p.path, p.message]);
      return !seen.has(k) && seen.add(k);
    });
}

/** Bounds on a config file: it is a few dozen lines; these refuse what would exhaust memory or time reading it. */
export const CONFIG_LIMITS = {
  /** bytes in the file */
  bytes: 1024 * 1024,
  /** brackets and braces open at once (deeper flow nesting makes the YAML reader itself run out of memory) */
  flowDepth: 64,
  /** nodes once every alias is expanded: an alias bomb expands a few lines into billions */
  expandedNodes: 100_000,
};

/**
 * Where `${ENV}` may appear: only where a secret belongs, so the environment goes nowhere but
 * into a value that is sealed and never printed. Anywhere else (a name, a URL, a prompt, a
 * report path) an environment value could be printed, sent to any address or stored in clear.
 */
export const SECRET_FIELDS = ['targets[].api_key', 'targets[].headers.<name>', 'targets[].sensitive[].value'];

function isSecretField(path: (string | number)[]): boolean {
  if (path[0] !== 'targets' || typeof path[1] !== 'number') return false;
  const rest = path.slice(2);
  if (rest.length === 1 && rest[0] === 'api_key') return true;
  if (rest.length === 2 && rest[0] === 'headers' && typeof rest[1] === 'string') return true;
  return rest.length === 3 && rest[0] === 'sensitive' && typeof rest[1] === 'number' && rest[2] === 'value';
}

/** `${NAME}`, or `$${` (a literal `${`) */
const REFERENCE = /\$\$\{|\$\{([^}]*)\}/g;

/**
 * Reads gauntlet.yaml (or .json: JSON is YAML), validates it against the shipped JSON Schema and
 * resolves ${ENV} references where a secret belongs. A problem is one line naming the file, line,
 * column and field, and never carries a value read from the environment.
 */
export function loadConfig(file: string, env: Record<string, string | undefined>): GauntletConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (Buffer.byteLength(text) > CONFIG_LIMITS.bytes) throw new CliError(`${file}: is larger than ${CONFIG_LIMITS.bytes / 1024 / 1024} MiB; a config file is a few dozen lines`);
  const lines = new LineCounter();
  const at = (offset: number | undefined) => {
    if (offset === undefined) return file;
    const { line, col } = lines.linePos(offset);
    return `${file}:${line}:${col}`;
  };
  const deep = tooDeep(text);
  if (deep !== null) {
    lines.addNewLine(0);
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines.addNewLine(i + 1);
    throw new CliError(`${at(deep)}: nests brackets more than ${CONFIG_LIMITS.flowDepth} deep`);
  }
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    const e = doc.errors[0];
    throw new CliError(`${at(e.pos[0])}: ${e.message.split('\n')[0]}`);
  }
  const bomb = aliasExpansionProblem(doc);
  if (bomb) throw new CliError(`${at(bomb.offset)}: ${bomb.problem}`);
  // the expansion is bounded above, so the reader's own alias count (which also refuses a file
  // that merely uses one anchor a hundred times) is not needed
  const value = doc.toJS({ maxAliasCount: -1 });
  // before the schema: `${URL}` in a url is refused for being there, not for not looking like a URL
  const misplaced = misplacedReference(value, []);
  if (misplaced) {
    throw new CliError(
      `${at(offsetOf(doc, misplaced))}: ${fieldName(misplaced)} holds a \${...} reference, which is resolved only where a secret belongs ` +
        `(a target's api_key, header values and sensitive values); write the value itself here, or $\${ for a literal \${`,
    );
  }
  const problems = validate(value);
  if (problems.length) {
    const found = schemaProblems(problems).map((p) => ({ ...p, offset: offsetOf(doc, p.path) ?? Infinity }));
    throw new CliError(found.sort((a, b) => a.offset - b.offset).map((p) => `${at(Number.isFinite(p.offset) ? p.offset : undefined)}: ${fieldName(p.path)} ${p.message}`).join('\n'));
  }
  return resolveEnv(value, [], (path, problem) => {
    throw new CliError(`${at(offsetOf(doc, path))}: ${fieldName(path)} ${problem}`);
  }, env) as GauntletConfig;
}

/** the offset where flow brackets nest deeper than the limit (outside quotes and comments), or null */
function tooDeep(text: string): number | null {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote || c === '\n') quote = null;
      continue;
    }
    if (c === '#' && (i === 0 || /\s/.test(text[i - 1]))) {
      const end = text.indexOf('\n', i);
      if (end < 0) break;
      i = end;
    } else if (c === '"' || (c === "'" && (i === 0 || /[\s[{,:]/.test(text[i - 1])))) quote = c;
    else if (c === '[' || c === '{') {
      if (++depth > CONFIG_LIMITS.flowDepth) return i;
    } else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
  return null;
}

/**
 * How many nodes the document is once every alias is expanded, counted without expanding it
 * (each anchored node's size is computed once): past the limit, the alias that got there.
 */
function aliasExpansionProblem(doc: Document): { offset: number | undefined; problem: string } | null {
  const sizes = new Map<Node, number>();
  const visiting = new Set<Node>();
  let found: { offset: number | undefined; problem: string } | null = null;
  const size = (node: unknown): number => {
    if (found) return 0;
    if (isAlias(node)) {
      const source = node.resolve(doc);
      if (!source) return 1;
      if (visiting.has(source)) {
        found = { offset: node.range?.[0], problem: `the alias *${node.source} refers to a node that contains it` };
        return 0;
      }
      const n = size(source);
      if (!found && n > CONFIG_LIMITS.expandedNodes) found = { offset: node.range?.[0], problem: aliasProblem(node.source) };
      return n;
    }
    if (isPair(node)) return size(node.key) + size(node.value);
    if (!isCollection(node)) return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    visiting.add(node);
    let total = 1;
    for (const item of node.items as unknown[]) {
      total += size(item);
      if (total > CONFIG_LIMITS.expandedNodes) {
        const alias = firstAlias(item);
        if (!found) found = { offset: (alias ?? (item as Node)).range?.[0] ?? undefined, problem: aliasProblem(alias?.source) };
        break;
      }
    }
    visiting.delete(node);
    sizes.set(node, total);
    return total;
  };
  size(doc.contents);
  return found;
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

/** the first alias at or under `node` (the line a bomb is reported on) */
function firstAlias(node: unknown): import('yaml').Alias | null {
  let alias: import('yaml').Alias | null = null;
  if (isAlias(node)) return node;
  if (isPair(node) || isCollection(node)) {
    visit(node as never, {
      Alias: (_, n) => {
        alias = n;
        return visit.BREAK;
      },
    });
  }
  return alias;
}

const aliasProblem = (name: string | undefined) =>
  `${name ? `the alias *${name} takes` : 'aliases take'} the file past ${CONFIG_LIMITS.expandedNodes.toLocaleString('en')} values once expanded (an alias bomb?); anchors and aliases are fine, nesting them to multiply is not`;

/** the path of the first string or key holding a `${...}` outside the fields where a secret belongs */
function misplacedReference(value: unknown, path: (string | number)[]): (string | number)[] | null {
  if (typeof value === 'string') return !isSecretField(path) && references(value).length ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = misplacedReference(value[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (references(k).length) return [...path, k];
      const found = misplacedReference(v, [...path, k]);
      if (found) return found;
    }
  }
  return null;
}

/** the `${...}` references in a string (a literal `$${` is none) */
function references(text: string): string[] {
  return [...text.matchAll(REFERENCE)].filter((m) => m[0] !== '$${').map((m) => m[1]);
}

/** every string with its references resolved (only secret fields have any left by now) and `$${` made `${` */
function resolveEnv(value: unknown, path: (string | number)[], refuse: (path: (string | number)[], problem: string) => never, env: Record<string, string | undefined>): unknown {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (whole, name: string | undefined) => {
      if (whole === '$${') return '${';
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name!)) return refuse(path, `refers to \${${name!.slice(0, 40)}}, which is not an environment variable name`);
      // the value is never part of a message: only the variable's name is
      return env[name!] ?? refuse(path, `refers to \${${name}}, which is not set in the environment`);
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => resolveEnv(v, [...path, i], refuse, env));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveEnv(v, [...path, k], refuse, env)]));
  return value;
}
