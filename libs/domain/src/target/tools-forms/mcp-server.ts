import { customHeaders, customHeadersProblem, HeaderPairs } from '../headers';
import { isObject, ToolsForm, ToolsProblem } from './form';

/** an MCP server as the log keeps it: its address, its headers sealed like the API key, their names in clear */
export interface McpSource {
  url: string;
  /** sealed JSON of the headers sent to the MCP server (an Authorization, say); never returned */
  headers_encrypted?: string | null;
  header_names?: string[];
}

/** as a request writes it */
type McpBody = { mcp: { url: string; headers?: Record<string, string> | null } };

const MAX_URL = 2048;
const URL_PROBLEM = { field: 'tools.mcp.url', message: 'tools.mcp.url is the http(s) address of an MCP server (Streamable HTTP).' };

/** whether a value is `{mcp: {...}}` and nothing else */
export const isMcpSetting = (value: unknown): value is { mcp: Record<string, unknown> } =>
  isObject(value) && Object.keys(value).length === 1 && isObject(value.mcp);

/**
 * The tools an MCP server lists over Streamable HTTP (read, never called): `{mcp: {url, headers?}}`.
 * Its headers are sealed like the API key (`headers_encrypted`), their names kept in clear; its
 * address goes through the outbound guard like the target's own.
 */
export const mcpServer: ToolsForm<
  'mcp',
  McpBody,
  { mcp: { url: string; headers: HeaderPairs } },
  { mcp: McpSource },
  { mcp: { url: string; headers?: Record<string, string> | null } },
  { mcp: { url: string; header_names: string[] } }
> = {
  name: 'mcp',
  doors: ['api', 'cli'],
  shape: '{mcp: {url, headers?}}',
  said: '{mcp: {url, headers?}}: the tools an MCP server lists over Streamable HTTP (never called; each risk inferred)',
  claims: (value): value is McpBody => isMcpSetting(value),
  read: (value) => {
    const mcp = (value as { mcp: Record<string, unknown> }).mcp;
    const unknown = Object.keys(mcp).find((k) => k !== 'url' && k !== 'headers');
    if (unknown) return { problem: { field: `tools.mcp.${unknown}`, message: `tools.mcp.${unknown} is not a field of an MCP source (url, headers).` } };
    const headers = mcp.headers;
    let pairs: HeaderPairs = [];
    if (headers !== undefined && headers !== null) {
      // a string or a list would be read as headers named 0, 1, 2...
      if (!isObject(headers)) return { problem: { field: 'tools.mcp.headers', message: 'tools.mcp.headers is an object of header names and their values.' } };
      pairs = Object.entries(headers) as HeaderPairs;
      const problem = customHeadersProblem(pairs);
      if (problem) return { problem: { field: 'tools.mcp.headers', message: `tools.mcp.headers: ${problem}` } };
    }
    const problem = urlProblem(mcp.url);
    return problem ? { problem } : { setting: { mcp: { url: mcp.url as string, headers: pairs } } };
  },
  check: (kept) => urlProblem(kept.mcp.url),
  seal: ({ mcp }, box) => ({
    mcp: { url: mcp.url, headers_encrypted: mcp.headers.length ? box.seal(JSON.stringify(customHeaders(mcp.headers))) : null, header_names: mcp.headers.map(([name]) => name) },
  }),
  // opened into a record with no inherited keys: a header named `constructor` is only a header
  open: ({ mcp }, box) => ({ mcp: { url: mcp.url, headers: mcp.headers_encrypted ? customHeaders(JSON.parse(box.open(mcp.headers_encrypted)) as Record<string, string>) : null } }),
  view: ({ mcp }) => ({ mcp: { url: mcp.url, header_names: mcp.header_names ?? [] } }),
  outboundUrls: ({ mcp }) => [{ url: mcp.url, field: 'tools.mcp.url' }],
  schema: {
    type: 'object', required: ['mcp'], additionalProperties: false,
    properties: {
      mcp: {
        type: 'object', required: ['url'], additionalProperties: false,
        properties: {
          url: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: MAX_URL },
          headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'sent to the MCP server; sealed like api_key, never returned' },
        },
      },
    },
  },
  viewSchema: { type: 'object', required: ['mcp'], properties: { mcp: { type: 'object', required: ['url', 'header_names'], properties: { url: { type: 'string' }, header_names: { type: 'array', items: { type: 'string' } } } } } },
  flag: { flag: '--mcp', value: '<url>', help: 'the tools this MCP server lists (Streamable HTTP; listed, never called)', body: (value) => ({ mcp: { url: String(value) } }) },
};

function urlProblem(url: unknown): ToolsProblem | null {
  let parsed: URL | null = null;
  try {
    parsed = typeof url === 'string' && url.length <= MAX_URL ? new URL(url) : null;
  } catch {
    parsed = null;
  }
  return parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:') ? null : URL_PROBLEM;
}
