import type { ToolCall, ToolDefinition } from '../../agent/tools';
import { ChatTurn } from './json-template';

/** The custom format's request and answer, as the target's owner describes them (api_format http). */
export interface HttpFormat {
  /** JSON text with `{{prompt}}` (and optionally `{{messages}}`) placeholders */
  body_template: string;
  /** dot path to the answer in the response JSON, e.g. `choices.0.message.content` */
  response_path: string;
}

/** What of a target a format builds its requests from (the key is added apart, by `key`). */
export interface FormatSettings {
  model: string | null;
  /** ask the API to stream its answers (they are read either way) */
  stream: boolean;
  http: HttpFormat | null;
}

/**
 * A URL as the user typed it, parsed: `path` is its path without trailing slashes. Each call
 * gets its own copy of `url`, so a format may change it and return `url.toString()`.
 */
export interface TypedUrl {
  typed: string;
  url: URL;
  path: string;
  model: string | null;
  /** asked to stream (Gemini streams from another method of the same model) */
  stream: boolean;
}

/** Where the API key goes: a header, its value written `${scheme} ${key}` when a scheme is named. */
export interface KeyPlacement {
  header: string;
  scheme?: string;
}

/** A 2xx answer as the transport hands it to a format's reader. */
export interface TargetAnswer {
  headers: Record<string, string | string[] | undefined>;
  contentType: string;
  /** the body, cut off with a TargetProtocolError past the transport's size limit */
  chunks: AsyncIterable<Buffer>;
}

/** What a format sends for a conversation: the path is the endpoint's, the key goes where `key` says. */
export interface FormatRequest {
  /** the format's own headers (an API version, say); content-type JSON is always sent */
  headers?: Record<string, string>;
  body: string;
}

/**
 * Everything about one model API Gauntlet talks to, in one place: names and words for people,
 * what `url` means, where the key goes, the request and how the answer reads, how its answers
 * are recognised and what to hint when it fails. Pure: no I/O (the scanner's one API driver
 * sends what `request` builds and hands the answer to `read`).
 */
export interface ApiFormatSpec<Name extends string = string> {
  /** the `api_format` value */
  readonly name: Name;
  /** a short label for forms, the dashboard and diagnoses ("answered as OpenAI chat completions") */
  readonly label: string;
  /** one line for the API document and docs: what it speaks and what `url` means */
  readonly description: string;
  /** what `url` looks like, for a hint after a 404 ("url should be ...") */
  readonly urlShape: string;
  readonly key: KeyPlacement;
  /** the endpoint called for what the user typed (a base URL, a bare host or the full endpoint) */
  endpoint(typed: TypedUrl): string;
  /** a URL/model combination that cannot work, said in the user's words; absent: all can */
  endpointProblem?(typed: TypedUrl): { field: string; message: string } | null;
  /**
   * After a 404 the check tries the API under /v1 of the same path, or at the server's root: the
   * tail this format's endpoints end with, cut before. Absent: nothing else is tried.
   */
  readonly alternativeTail?: RegExp;
  /** whether a JSON answer is this API's (to name the format a misconfigured target speaks) */
  recognises?(json: Record<string, any>): boolean;
  /**
   * What a target of this format needs beyond a URL, as the API document states it (JSON Schema
   * over the target's fields): the rule endpointProblem and settingsProblem apply in code.
   * Absent: a URL is enough.
   */
  readonly documentedNeeds?: { description: string; required?: string[]; anyOf?: object[] };
  /** what a driver cannot work without, as the error to raise; null or absent when complete */
  settingsProblem?(settings: FormatSettings): string | null;
  request(turns: ChatTurn[], settings: FormatSettings): FormatRequest;
  /** the answer text of a 2xx answer, JSON or streamed; errors as TargetProtocolError / TargetUnavailableError */
  read(answer: TargetAnswer, settings: FormatSettings): Promise<string>;
  /**
   * Tool calling, for APIs that have it: the request with tools offered and a history that may
   * hold the agent's calls (assistant turns with `tool_calls`) and Gauntlet's results (`tool`
   * turns) in this API's own shape, and the answer read as its text and the calls it made.
   * Absent: the API is never offered tools. Requests without tools never go through here.
   */
  readonly tools?: ToolCalling;
  /** diagnosis hints where this format differs from the others */
  readonly hints?: {
    /** the target answered an empty message */
    emptyAnswer?: string;
    /** the answer is JSON, but not a form this format reads, and no other format's */
    unreadable?: string;
    /** HTTP 404 from the endpoint */
    notFound?: string;
  };
}

/** One turn of an agent's conversation as a format sends it: user, assistant (maybe with calls) or a tool's result. */
export interface AgentTurn {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  name?: string;
}

/** An answer read with its tool calls: the text (often empty when it calls) and the calls, in order. */
export interface AgentAnswer {
  text: string;
  calls: ToolCall[];
}

export interface ToolCalling {
  request(turns: readonly AgentTurn[], tools: readonly ToolDefinition[], settings: FormatSettings): FormatRequest;
  read(answer: TargetAnswer, settings: FormatSettings): Promise<AgentAnswer>;
}

/** a call's arguments as the agent wrote them: the parsed object, or the raw text when it is not a JSON object */
export function parsedArguments(raw: unknown): Record<string, unknown> | string {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, unknown>;
  if (typeof raw !== 'string') return raw === undefined || raw === null ? {} : JSON.stringify(raw);
  if (raw.trim() === '') return {};
  try {
    const v = JSON.parse(raw);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : raw;
  } catch {
    return raw;
  }
}

/** the arguments as JSON text, as APIs that carry them as a string want them back */
export const wireArguments = (args: Record<string, unknown> | string): string => (typeof args === 'string' ? args : JSON.stringify(args));

/** the URL with its path replaced */
export function withPath(typed: TypedUrl, path: string): string {
  typed.url.pathname = path;
  return typed.url.toString();
}

/** a URL that already ends with `tail` is called as typed; a bare host gets `bare`; any other path gets `tail` added */
export function completePath(typed: TypedUrl, tail: string, bare: string): string {
  const { path } = typed;
  return withPath(typed, path.endsWith(tail) ? path : path === '' ? bare : `${path}${tail}`);
}

/** the request headers that carry `key` */
export function keyHeaders(key: KeyPlacement, value: string | null | undefined): Record<string, string> {
  return value ? { [key.header]: key.scheme ? `${key.scheme} ${value}` : value } : {};
}

/** how a hint names where the key goes: `Authorization: Bearer`, `x-api-key` */
export function keyPlacementText(key: KeyPlacement): string {
  return key.scheme ? `${key.header.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase())}: ${key.scheme}` : key.header;
}
