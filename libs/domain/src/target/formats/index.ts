import { TargetProtocolError } from '../target-errors';
import { AgentAnswer, ApiFormatSpec, FormatSettings, TargetAnswer } from './api-format';
import { UnrecognisedAnswer } from './answers';
import { anthropic } from './anthropic';
import { azureOpenai } from './azure-openai';
import { gemini } from './gemini';
import { http } from './http';
import { ollama } from './ollama';
import { openai } from './openai';
import { openaiResponses } from './openai-responses';

/**
 * The model APIs Gauntlet speaks, one file each: a new one is a file beside these and a line
 * here. The registry lives in the domain, not in the scanner, because the domain decides with
 * it (what `url` means, the target's settings, the connection diagnosis) and may import nothing
 * above itself; a format is pure data and pure functions, and the scanner's one API driver
 * (drivers/api/api-format-driver.ts) does the I/O. Everything else (the `api_format` enum,
 * the API document's labels, the CLI's choices, the wrong-format recogniser) is read from here.
 * The order is the enum's order.
 */
export const API_FORMAT_SPECS = [openai, anthropic, http, azureOpenai, ollama, gemini, openaiResponses] as const;

export type ApiFormat = (typeof API_FORMAT_SPECS)[number]['name'];
export const API_FORMATS = API_FORMAT_SPECS.map((f) => f.name) as readonly ApiFormat[];

const BY_NAME = new Map<string, ApiFormatSpec<ApiFormat>>(API_FORMAT_SPECS.map((f) => [f.name, f]));

export function isApiFormat(name: unknown): name is ApiFormat {
  return typeof name === 'string' && BY_NAME.has(name);
}

/** the spec of a format (a name the registry does not hold throws: the DTO refuses it first) */
export function apiFormat(name: ApiFormat): ApiFormatSpec<ApiFormat> {
  const spec = BY_NAME.get(name);
  if (!spec) throw new Error(`api_format ${String(name)} is not a known format`);
  return spec;
}

/** the format a JSON answer looks like, when one recognises it */
export function looksLike(json: unknown): ApiFormat | null {
  if (!json || typeof json !== 'object') return null;
  return API_FORMAT_SPECS.find((f) => f.recognises?.(json as Record<string, any>))?.name ?? null;
}

/**
 * The format's reading of a 2xx answer. An answer it does not recognise becomes an unreadable
 * TargetProtocolError naming the format the JSON looks like instead, so a check can say which
 * api_format to choose.
 */
export async function readAnswer(spec: ApiFormatSpec, answer: TargetAnswer, settings: FormatSettings): Promise<string> {
  try {
    return await spec.read(answer, settings);
  } catch (err) {
    if (!(err instanceof UnrecognisedAnswer)) throw err;
    throw new TargetProtocolError(err.message, { kind: 'unreadable', contentType: answer.contentType, looksLike: looksLike(err.json) });
  }
}

/** readAnswer's twin for an answer to a request with tools: the text and the calls it made */
export async function readAgentAnswer(spec: ApiFormatSpec, answer: TargetAnswer, settings: FormatSettings): Promise<AgentAnswer> {
  if (!spec.tools) throw new Error(`api_format ${spec.name} is never offered tools`);
  try {
    return await spec.tools.read(answer, settings);
  } catch (err) {
    if (!(err instanceof UnrecognisedAnswer)) throw err;
    throw new TargetProtocolError(err.message, { kind: 'unreadable', contentType: answer.contentType, looksLike: looksLike(err.json) });
  }
}

export * from './api-format';
export { answerJson, answerText, isEventStream, UnrecognisedAnswer } from './answers';
export { fillBodyTemplate, answerAtPath, valueAtPath } from './json-template';
export type { ChatTurn } from './json-template';
export { readServerSentEvents } from './server-sent-events';
export type { ServerSentEvent } from './server-sent-events';
export { readJsonLines } from './json-lines';
export { ANTHROPIC_VERSION } from './anthropic';
export { AZURE_OPENAI_API_VERSION } from './azure-openai';
export { readOpenAiAnswer } from './openai';
