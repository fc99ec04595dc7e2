import type { ApiFormat } from './target';

/**
 * What a user types as a target URL and what is called. People paste what their SDK takes: a
 * base URL (`https://host/v1`, the OpenAI SDKs' `base_url`, garak's `uri`, promptfoo's
 * `apiBaseUrl`), a bare host, or the full endpoint. Each API format names the path it completes
 * a base URL with; a URL that already ends with that path is called as typed.
 */
export interface EndpointInput {
  api_format: ApiFormat | null;
  url: string;
  model: string | null;
  /** asked to stream: Gemini streams from another method of the same model */
  stream?: boolean;
}

/** Azure OpenAI's latest GA data-plane version, used when a deployment URL names none. */
export const AZURE_OPENAI_API_VERSION = '2024-10-21';

/** Refused URL/format/model combinations, said in the user's words; null when the endpoint is clear. */
export function endpointProblem(input: EndpointInput): { field: string; message: string } | null {
  const url = parse(input.url);
  if (!url) return null; // the URL's own validation speaks first
  const path = trimSlash(url.pathname);
  switch (input.api_format) {
    case 'gemini':
      if (!input.model && !/\/models\/[^/:]+/.test(path)) {
        return { field: 'model', message: 'api_format gemini needs model (e.g. gemini-2.0-flash) or a URL naming it (.../v1beta/models/{model}:generateContent).' };
      }
      return null;
    case 'ollama':
      if (!input.model) return { field: 'model', message: 'api_format ollama needs model (the name `ollama list` shows, e.g. llama3.2).' };
      return null;
    case 'azure-openai':
      if (!/\/openai\/(deployments\/[^/]+|v1)(\/|$)/.test(`${path}/`) && !input.model) {
        return { field: 'url', message: 'api_format azure-openai needs a deployment URL (https://{resource}.openai.azure.com/openai/deployments/{deployment}) or model naming the deployment.' };
      }
      return null;
    default:
      return null;
  }
}

/**
 * The URL a driver calls for `input`. Everything typed is kept (query string included, e.g. an
 * Azure api-version); only the missing tail of the path is added.
 */
export function apiEndpoint(input: EndpointInput): string {
  const url = parse(input.url);
  if (!url) return input.url;
  const path = trimSlash(url.pathname);
  const withPath = (p: string) => {
    url.pathname = p;
    return url.toString();
  };
  const complete = (tail: string, bare: string) => (path.endsWith(tail) ? withPath(path) : withPath(path === '' ? bare : `${path}${tail}`));
  switch (input.api_format) {
    case 'openai':
      return complete('/chat/completions', '/v1/chat/completions');
    case 'openai-responses':
      return complete('/responses', '/v1/responses');
    case 'anthropic':
      return complete('/messages', '/v1/messages');
    case 'ollama':
      if (path.endsWith('/api/chat')) return withPath(path);
      return withPath(path.endsWith('/api') ? `${path}/chat` : `${path}/api/chat`);
    case 'azure-openai':
      return azure(url, path, input.model);
    case 'gemini':
      return gemini(url, path, input.model, input.stream === true);
    default:
      // http: the user wrote the whole request, the URL included
      return input.url;
  }
}

function azure(url: URL, path: string, model: string | null): string {
  // the v1 API (2025): OpenAI's shape under /openai/v1, no api-version
  const v1 = path.match(/^(.*\/openai\/v1)(\/chat\/completions)?$/);
  if (v1) {
    url.pathname = `${v1[1]}/chat/completions`;
    return url.toString();
  }
  const deployment = path.match(/^(.*\/openai\/deployments\/[^/]+)(\/chat\/completions)?$/);
  url.pathname = deployment ? `${deployment[1]}/chat/completions` : `${path.replace(/\/openai$/, '')}/openai/deployments/${encodeURIComponent(model ?? '')}/chat/completions`;
  if (!url.searchParams.has('api-version')) url.searchParams.set('api-version', AZURE_OPENAI_API_VERSION);
  return url.toString();
}

function gemini(url: URL, path: string, model: string | null, stream: boolean): string {
  const method = stream ? 'streamGenerateContent' : 'generateContent';
  const named = path.match(/^(.*\/models\/[^/:]+)(:[A-Za-z]+)?$/);
  if (named) url.pathname = `${named[1]}:${method}`;
  else {
    // a bare host gets the version the API documents its REST examples with
    const base = path === '' ? '/v1beta' : path;
    const name = (model ?? '').replace(/^models\//, '');
    url.pathname = `${base}/models/${encodeURIComponent(name)}:${method}`;
  }
  // a streamed generateContent answers one JSON array unless asked for server-sent events
  if (stream && !url.searchParams.has('alt')) url.searchParams.set('alt', 'sse');
  return url.toString();
}

function parse(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function trimSlash(path: string): string {
  return path.replace(/\/+$/, '');
}
