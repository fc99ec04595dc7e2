import { TOOL_RISKS, ToolDefinition, ToolRisk } from '../../agent/tools';
import { isObject, ToolsForm, ToolsProblem } from './form';

export const MAX_TOOLS = 32;
export const TOOL_NAME_PATTERN = '^[A-Za-z][A-Za-z0-9_-]{0,63}$';
const TOOL_NAME = new RegExp(TOOL_NAME_PATTERN);
export const MAX_TOOL_DESCRIPTION = 1024;
/** the JSON text of one tool's parameters schema */
export const MAX_TOOL_SCHEMA_BYTES = 16 * 1024;
const MAX_SCHEMA_DEPTH = 12;

/**
 * The owner's tool definitions as Gauntlet keeps them, from either form an agent's code holds
 * them in: `{name, description, parameters, risk}` or OpenAI's function form
 * `{type: 'function', function: {name, description, parameters}, risk}`. Returns the definitions
 * or the first problem, named by field (`tools[2].risk`).
 */
export function readToolDefinitions(input: unknown): { tools: ToolDefinition[] } | { problem: ToolsProblem } {
  if (!Array.isArray(input)) return { problem: { field: 'tools', message: 'tools is "decoy", "none", a list of tool definitions or {mcp: {url}}.' } };
  if (input.length === 0) return { problem: { field: 'tools', message: 'a list of tools needs at least one definition (or say "none").' } };
  if (input.length > MAX_TOOLS) return { problem: { field: 'tools', message: `at most ${MAX_TOOLS} tools.` } };
  const tools: ToolDefinition[] = [];
  const names = new Set<string>();
  for (let i = 0; i < input.length; i++) {
    const at = `tools[${i}]`;
    const raw = input[i];
    if (!isObject(raw)) return { problem: { field: at, message: `${at} is an object {name, description, parameters, risk}.` } };
    const fn = raw.type === 'function' && isObject(raw.function) ? raw.function : raw;
    const allowed = fn === raw ? ['name', 'description', 'parameters', 'risk'] : ['type', 'function', 'risk'];
    const unknown = Object.keys(raw).find((k) => !allowed.includes(k));
    if (unknown) return { problem: { field: `${at}.${unknown}`, message: `${at}.${unknown} is not a field of a tool definition.` } };
    const { name, description, parameters } = fn;
    const problem = toolProblem(fn);
    if (problem) return { problem: { field: `${at}.${problem.field}`, message: `${at}.${problem.field} ${problem.message}` } };
    if (names.has(name)) return { problem: { field: `${at}.name`, message: `${at}.name "${name}" is given twice: tool names are unique.` } };
    names.add(name);
    if (!TOOL_RISKS.includes(raw.risk as ToolRisk)) return { problem: { field: `${at}.risk`, message: `${at}.risk is one of ${TOOL_RISKS.join(', ')}.` } };
    tools.push({ name, description: (description as string | undefined) ?? '', parameters: (parameters as Record<string, unknown> | undefined) ?? { type: 'object', properties: {} }, risk: raw.risk as ToolRisk });
  }
  return { tools };
}

/**
 * What is wrong with one tool as a scan may offer it, or null: a name by TOOL_NAME_PATTERN, a
 * description of at most MAX_TOOL_DESCRIPTION characters, parameters that parametersProblem
 * accepts. The one rule for every tool, the owner's own and those an MCP server lists.
 */
export function toolProblem(tool: { name?: unknown; description?: unknown; parameters?: unknown }): { field: 'name' | 'description' | 'parameters'; message: string } | null {
  if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) return { field: 'name', message: 'is a letter then up to 63 letters, digits, _ or -.' };
  if (tool.description !== undefined && (typeof tool.description !== 'string' || tool.description.length > MAX_TOOL_DESCRIPTION)) {
    return { field: 'description', message: `is text of at most ${MAX_TOOL_DESCRIPTION} characters.` };
  }
  const schemaProblem = parametersProblem(tool.parameters ?? { type: 'object', properties: {} });
  return schemaProblem ? { field: 'parameters', message: schemaProblem } : null;
}

/** what is wrong with a tool's parameters schema, or null: a JSON Schema of an object, bounded */
export function parametersProblem(schema: unknown): string | null {
  if (!isObject(schema)) return 'is a JSON Schema object.';
  if (schema.type !== 'object') return 'is the JSON Schema of an object (type "object").';
  if (schema.properties !== undefined && !isObject(schema.properties)) return 'has properties that are not an object.';
  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch {
    return 'is not JSON.';
  }
  if (Buffer.byteLength(text, 'utf8') > MAX_TOOL_SCHEMA_BYTES) return `is larger than ${MAX_TOOL_SCHEMA_BYTES} bytes.`;
  if (depth(schema) > MAX_SCHEMA_DEPTH) return `nests deeper than ${MAX_SCHEMA_DEPTH} levels.`;
  return null;
}


/** JSON Schema of one definition as the API takes and shows it (the OpenAI function form {type, function, risk} is taken too) */
const DEFINITION_SCHEMA = {
  type: 'object',
  required: ['name', 'risk'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: TOOL_NAME_PATTERN },
    description: { type: 'string', maxLength: MAX_TOOL_DESCRIPTION },
    parameters: { type: 'object', description: 'JSON Schema of the arguments (type object)' },
    risk: { enum: TOOL_RISKS, description: 'what a steered call can do: read (medium), write (high), financial, destructive, exfiltration (critical)' },
  },
};
const FUNCTION_FORM_SCHEMA = { type: 'object', required: ['type', 'function', 'risk'], properties: { type: { enum: ['function'] }, function: { type: 'object' }, risk: { enum: TOOL_RISKS } } };

/** The owner's own definitions (their agent's real schemas, a risk each), kept in one form. */
export const toolDefinitions: ToolsForm<'definitions', unknown[], ToolDefinition[], ToolDefinition[], ToolDefinition[], ToolDefinition[]> = {
  name: 'definitions',
  doors: ['api', 'cli'],
  shape: 'a list of tool definitions',
  said: 'a list of your own tool definitions [{name, description, parameters (JSON Schema), risk}] (or the OpenAI function form with risk beside it)',
  claims: (value): value is unknown[] => Array.isArray(value),
  read: (value) => {
    const read = readToolDefinitions(value);
    return 'problem' in read ? read : { setting: read.tools };
  },
  check: (kept) => {
    const read = readToolDefinitions(kept);
    return 'problem' in read ? read.problem : null;
  },
  seal: (setting) => setting,
  open: (kept) => kept,
  view: (kept) => kept,
  outboundUrls: () => [],
  schema: { type: 'array', minItems: 1, maxItems: MAX_TOOLS, items: { oneOf: [DEFINITION_SCHEMA, FUNCTION_FORM_SCHEMA] } },
  viewSchema: { type: 'array', items: DEFINITION_SCHEMA },
  flag: { flag: '--tools', value: '<set>', help: 'a JSON file of tool definitions [{name, description, parameters, risk}]', file: true, body: (json) => json as unknown[] },
};

function depth(v: unknown, level = 0): number {
  if (level > MAX_SCHEMA_DEPTH) return level;
  if (v === null || typeof v !== 'object') return level;
  let most = level;
  for (const child of Object.values(v as object)) most = Math.max(most, depth(child, level + 1));
  return most;
}
