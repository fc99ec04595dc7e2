import { apiFormat, ApiFormat, TypedUrl } from './formats';

/**
 * What a user types as a target URL and what is called. People paste what their SDK takes: a
 * base URL (`https://host/v1`, the OpenAI SDKs' `base_url`, garak's `uri`, promptfoo's
 * `apiBaseUrl`), a bare host, or the full endpoint. Each API format (formats/) names the path
 * it completes a base URL with; a URL that already ends with that path is called as typed.
 */
export interface EndpointInput {
  api_format: ApiFormat | null;
  url: string;
  model: string | null;
  /** asked to stream: Gemini streams from another method of the same model */
  stream?: boolean;
}

/** Refused URL/format/model combinations, said in the user's words; null when the endpoint is clear. */
export function endpointProblem(input: EndpointInput): { field: string; message: string } | null {
  const typed = parse(input);
  if (!typed || !input.api_format) return null; // the URL's own validation speaks first
  return apiFormat(input.api_format).endpointProblem?.(typed) ?? null;
}

/**
 * The URL a driver calls for `input`. Everything typed is kept (query string included, e.g. an
 * Azure api-version); only the missing tail of the path is added.
 */
export function apiEndpoint(input: EndpointInput): string {
  const typed = parse(input);
  if (!typed || !input.api_format) return input.url;
  return apiFormat(input.api_format).endpoint(typed);
}

function parse(input: EndpointInput): TypedUrl | null {
  try {
    const url = new URL(input.url);
    return { typed: input.url, url, path: url.pathname.replace(/\/+$/, ''), model: input.model, stream: input.stream === true };
  } catch {
    return null;
  }
}
