import { DomainError } from '../decider';
import { API_FORMAT_SPECS, apiFormat, isApiFormat } from './formats';
import { decoyTools } from './tools-forms/decoy';
import { toolDefinitions } from './tools-forms/definitions';
import { OutboundUrl, Sealer, ToolsDoor, ToolsFlag, ToolsForm, ToolsProblem } from './tools-forms/form';
import { mcpCommand } from './tools-forms/mcp-command';
import { mcpServer } from './tools-forms/mcp-server';
import { noTools } from './tools-forms/none';

export { MAX_TOOL_DESCRIPTION, MAX_TOOL_SCHEMA_BYTES, MAX_TOOLS, TOOL_NAME_PATTERN, parametersProblem, readToolDefinitions, toolProblem } from './tools-forms/definitions';
export type { McpSource } from './tools-forms/mcp-server';
export type { OutboundUrl, Sealer, ToolsDoor, ToolsFlag, ToolsProblem } from './tools-forms/form';

/**
 * What a target's agent is offered during a scan (`tools` on the target), one line a form. The one
 * owner of the setting: every door (the API's DTO and handlers, embedded use, the CLI's file and
 * flags, the scanner) reads, seals, opens, shows, defaults and describes it here. The order
 * matters where two forms claim one value: the first reads it (a local MCP command before an MCP
 * server's address).
 */
export const TOOLS_FORMS = [decoyTools, noTools, toolDefinitions, mcpCommand, mcpServer] as const;

type Form = (typeof TOOLS_FORMS)[number];
type FormTypes<F> = F extends ToolsForm<infer N, infer B, infer S, infer K, infer O, infer V> ? { name: N; body: B; sent: S; kept: K; opened: O; view: V } : never;

export type ToolsFormName = FormTypes<Form>['name'];
/** the setting as a request or gauntlet.yaml writes it (a local MCP command: the CLI's only) */
export type ToolsBody = FormTypes<Form>['body'];
/** the setting as a door reads it (secrets in clear) */
export type SentTools = FormTypes<Form>['sent'];
/** the setting as the log keeps it (secrets sealed) */
export type TargetTools = FormTypes<Form>['kept'];
/** the setting as a scan takes it (secrets opened, in memory only) */
export type OpenedTools = FormTypes<Form>['opened'];
/** the setting as reads show it: MCP headers by name, never their values */
export type ToolsView = FormTypes<Form>['view'];

// a generic view of the table: each function below hands a form only values that form claimed
const FORMS = TOOLS_FORMS as readonly ToolsForm<string, any, any, any, any, any>[];
const formsAt = (door: ToolsDoor) => FORMS.filter((f) => f.doors.includes(door));
const formOf = (value: unknown, door?: ToolsDoor) => (door ? formsAt(door) : FORMS).find((f) => f.claims(value)) ?? null;

/** `a, b or c` */
const orList = (all: string[]) => (all.length > 1 ? `${all.slice(0, -1).join(', ')} or ${all[all.length - 1]}` : all[0]);

/** what the setting is, in the sentence a refusal says */
const shapes = (door: ToolsDoor) => orList(formsAt(door).map((f) => f.shape));

// what was read at a door, by the value read: the DTO's check and the handler's seal read it once
const readAlready = new WeakMap<object, ReturnType<typeof readUnremembered>>();
// what the owner has sealed: the decider does not check again what was read here
const sealedHere = new WeakSet<object>();

function readUnremembered(value: unknown, door: ToolsDoor): { setting: SentTools } | { problem: ToolsProblem } {
  const form = formOf(value, door);
  return form ? form.read(value) : { problem: { field: 'tools', message: `tools is ${shapes(door)}.` } };
}

/** The setting as a door sends it, read by its form, or the first problem named by field (`tools[2].risk`). */
export function readTools(value: unknown, door: ToolsDoor = 'api'): { setting: SentTools } | { problem: ToolsProblem } {
  if (door !== 'api' || value === null || typeof value !== 'object') return readUnremembered(value, door);
  const known = readAlready.get(value);
  if (known) return known;
  const read = readUnremembered(value, door);
  readAlready.set(value, read);
  return read;
}

/** the setting as the log keeps it: read (once, where the door checked it) and its secrets sealed */
export function sealTools(value: unknown, box: Sealer): TargetTools {
  const read = readTools(value);
  if ('problem' in read) throw new DomainError('invalid', read.problem.message, { field: read.problem.field });
  const kept = formOf(value, 'api')!.seal(read.setting, box) as TargetTools;
  if (kept !== null && typeof kept === 'object') sealedHere.add(kept);
  return kept;
}

/** the problem of a whole `tools` setting as kept (the decider's check), or null */
export function targetToolsProblem(tools: TargetTools | undefined): ToolsProblem | null {
  if (tools === undefined || (tools !== null && typeof tools === 'object' && sealedHere.has(tools))) return null;
  const form = formOf(tools, 'api');
  return form ? form.check(tools) : { field: 'tools', message: `tools is ${shapes('api')}.` };
}

/** the setting opened for a scan: MCP headers in clear, in memory only */
export function openTools(tools: TargetTools | undefined, box: Sealer): OpenedTools | null {
  if (tools === undefined) return null;
  return formOf(tools)!.open(tools, box);
}

/** the setting as reads show it: MCP headers named, never their values */
export function toolsView(tools: TargetTools): ToolsView;
export function toolsView(tools: TargetTools | undefined): ToolsView | null;
export function toolsView(tools: TargetTools | undefined): ToolsView | null {
  return tools === undefined ? null : formOf(tools)!.view(tools);
}

/** the addresses a setting as sent makes Gauntlet call, each with its field: the outbound guard checks them before anything is kept */
export function toolsOutboundUrls(value: unknown): OutboundUrl[] {
  if (value === undefined) return [];
  const read = readTools(value);
  return 'setting' in read ? formOf(value, 'api')!.outboundUrls(read.setting) : [];
}

/** the form a setting is of, by name (the scanner picks the tool set that lists it by this) */
export function toolsFormOf(tools: OpenedTools | TargetTools): ToolsFormName {
  const form = formOf(tools);
  if (!form) throw new TypeError('tools: no form reads this setting');
  return form.name as ToolsFormName;
}

/** whether a target's API format can be offered tools (its format has a tools part) */
export function takesTools(s: { scan_mode: string; api_format?: string | null }): boolean {
  return s.scan_mode === 'api' && isApiFormat(s.api_format) && !!apiFormat(s.api_format).tools;
}

/** The setting a target has when it says none: decoy where its API format takes tools, else none. */
export function defaultTools(target: { scan_mode: string; api_format?: string | null }): 'decoy' | 'none' {
  return takesTools(target) ? 'decoy' : 'none';
}

/** a target's setting, its own or the default said out loud */
export function toolsOf<T>(target: { scan_mode: string; api_format?: string | null; tools?: T | null }): T | 'decoy' | 'none' {
  return target.tools ?? defaultTools(target);
}

/** JSON Schema of the setting as a door takes it: the words in one enum, then each other form's */
export function toolsSchema(door: ToolsDoor): { oneOf: Record<string, unknown>[] } {
  return { oneOf: withWordsTogether(formsAt(door).map((f) => f.schema)) };
}

/** JSON Schema of the setting as reads show it */
export function toolsViewSchema(): { oneOf: Record<string, unknown>[] } {
  return { oneOf: withWordsTogether(FORMS.flatMap((f) => (f.viewSchema ? [f.viewSchema] : []))) };
}

/** what the setting is, for the API document (door api) and gauntlet.yaml's schema (door cli) */
export function toolsDescription(door: ToolsDoor): string {
  const formats = API_FORMAT_SPECS.filter((f) => f.tools).map((f) => f.name).join(', ');
  const said = formsAt(door).map((f) => f.said);
  return `what the target's agent is offered during a scan (API formats with tool calling: ${formats}). ${said.slice(0, -1).join('; ')}; or ${said[said.length - 1]}. Gauntlet answers every call itself; nothing is executed.`;
}

function withWordsTogether(schemas: Record<string, unknown>[]): Record<string, unknown>[] {
  const isWord = (s: Record<string, unknown>) => Object.keys(s).length === 1 && Array.isArray(s.enum);
  const words = schemas.filter(isWord).flatMap((s) => s.enum as unknown[]);
  return [...(words.length ? [{ enum: words }] : []), ...schemas.filter((s) => !isWord(s))];
}

type AnyForm = (typeof FORMS)[number];

/** each `gauntlet scan` flag the forms give, with its forms in TOOLS_FORMS' order */
function flagsOfForms(): Map<string, (AnyForm & { flag: ToolsFlag })[]> {
  const flags = new Map<string, (AnyForm & { flag: ToolsFlag })[]>();
  for (const f of formsAt('cli')) if (f.flag) flags.set(f.flag.flag, [...(flags.get(f.flag.flag) ?? []), f as AnyForm & { flag: ToolsFlag }]);
  return flags;
}

/**
 * `gauntlet scan`'s options for the setting, one a flag (at most one of them is given), each with
 * the forms it takes said together ("decoy (default), none or a JSON file of tool definitions …").
 */
export function toolsFlags(): { flag: string; option: string; help: string }[] {
  return [...flagsOfForms().values()].map((forms) => ({
    flag: forms[0].flag.flag,
    option: `${forms[0].flag.flag} ${forms[0].flag.value}`,
    help: `what an agent is offered (API formats with tool calling): ${orList(forms.map((f) => f.flag.help))}`,
  }));
}

/**
 * The setting a `gauntlet scan` flag's value gives: the first of the flag's forms that claims the
 * body the value makes, the file it names read first (`readJson`) for a form that takes a file; or
 * the problem, in the flag's words. What the body holds is checked where every setting is (`readTools`).
 */
export function toolsFromFlag(flag: string, value: string, readJson: (file: string) => unknown): { setting: ToolsBody } | { problem: string } {
  const forms = flagsOfForms().get(flag) ?? [];
  const made = (of: typeof forms, v: unknown): ToolsBody | undefined => {
    for (const f of of) {
      const body = f.flag.body(v);
      if (body !== null && f.claims(body)) return body as ToolsBody;
    }
    return undefined;
  };
  const said = made(forms.filter((f) => !f.flag.file), value);
  if (said !== undefined) return { setting: said };
  const files = forms.filter((f) => f.flag.file);
  const given = `${flag} ${value.trim() || '""'}`;
  const not = `${given}: not ${orList(forms.map((f) => f.flag.help))}`;
  if (!files.length) return { problem: not };
  let json: unknown;
  try {
    json = readJson(value);
  } catch (e) {
    return { problem: `${not} (${e instanceof Error ? e.message : String(e)})` };
  }
  const held = made(files, json);
  return held !== undefined ? { setting: held } : { problem: `${given}: the file is not ${orList(files.map((f) => f.flag.help))}` };
}
