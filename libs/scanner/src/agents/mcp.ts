import { MAX_TOOL_DESCRIPTION, MAX_TOOLS, toolProblem, type ToolDefinition } from '@gauntlet/domain';
import { checkOutboundUrl, guardedDispatcher } from '@gauntlet/outbound';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { fetch as undiciFetch } from 'undici';
import { inferredRisk, McpToolHints } from './tool-kinds';
import { ListedTools, ScanTools, ToolSet, ToolSetContext } from './tool-set';

type McpSetting = Extract<ScanTools, { mcp: unknown }>;
/** pages of `tools/list` read at most */
const MAX_PAGES = 8;
/** the answers of one listing, all pages together, in bytes: a server cannot make the scanner read more */
export const MAX_MCP_LIST_BYTES = 1024 * 1024;
/** tools left out named in the scan's note, at most */
const NAMED_LEFT_OUT = 5;

/**
 * The tools an MCP server lists, read with the official SDK: over Streamable HTTP through the
 * outbound guard (the same rules as the target's own API), or, from the CLI, a local server run
 * as a command (stdio). Only `tools/list` is asked, within a deadline and MAX_MCP_LIST_BYTES; no tool
 * is ever called. Each tool is held to the rules a registered one is (toolProblem: its name, its
 * schema's size and depth, at most MAX_TOOLS of them; a longer description is cut): what is left out
 * is said. Each tool's risk is inferred from its name, description and annotations (tool-kinds.ts).
 */
export const mcpToolSet: ToolSet<McpSetting> = {
  name: 'mcp',
  forms: ['mcp', 'mcp-command'],
  list: listMcpTools,
};

export async function listMcpTools(setting: McpSetting, context: ToolSetContext): Promise<ListedTools> {
  const transport = transportFor(setting, context);
  const client = new Client({ name: 'gauntlet', version: '1' }, { capabilities: {} });
  const deadline = AbortSignal.timeout(context.timeoutMs);
  const signal = context.signal ? AbortSignal.any([context.signal, deadline]) : deadline;
  try {
    await client.connect(transport, { signal, timeout: context.timeoutMs });
    const tools: ToolDefinition[] = [];
    const leftOut: string[] = [];
    let beyond = 0;
    let cut = 0;
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const listed = await client.listTools(cursor ? { cursor } : undefined, { signal, timeout: context.timeoutMs });
      for (const t of listed.tools) {
        if (tools.length >= MAX_TOOLS) {
          beyond++;
          continue;
        }
        const title = t.description ?? t.title ?? '';
        const description = title.slice(0, MAX_TOOL_DESCRIPTION);
        if (description.length < title.length) cut++;
        const parameters = t.inputSchema && t.inputSchema.type === 'object' ? (t.inputSchema as Record<string, unknown>) : { type: 'object', properties: {} };
        const problem = toolProblem({ name: t.name, description, parameters }) ?? (tools.some((known) => known.name === t.name) ? { field: 'name', message: 'is listed twice.' } : null);
        if (problem) {
          leftOut.push(`${JSON.stringify(String(t.name).slice(0, 64))} (its ${problem.field} ${problem.message.replace(/\.$/, '')})`);
          continue;
        }
        tools.push({ name: t.name, description, parameters, risk: inferredRisk({ name: t.name, description }, (t.annotations ?? {}) as McpToolHints) });
      }
      cursor = listed.nextCursor;
      if (!cursor || tools.length >= MAX_TOOLS) break;
    }
    const said = [
      ...(leftOut.length ? [`${leftOut.length} left out: ${leftOut.slice(0, NAMED_LEFT_OUT).join(', ')}${leftOut.length > NAMED_LEFT_OUT ? ` and ${leftOut.length - NAMED_LEFT_OUT} more` : ''}`] : []),
      ...(beyond || cursor ? [`only the first ${MAX_TOOLS} are offered${beyond ? ` (${beyond} more listed${cursor ? ', and more pages' : ''})` : ' (more pages)'}`] : []),
      ...(cut ? [`${cut} description${cut > 1 ? 's' : ''} cut to ${MAX_TOOL_DESCRIPTION} characters`] : []),
    ];
    return { tools, ...(said.length && { leftOut: `the MCP server's tools are held to the rules of registered ones: ${said.join('; ')}` }) };
  } finally {
    await client.close().catch(() => undefined);
  }
}

/**
 * `fetch` with the answer's body counted against `budget` (shared by every request of one listing):
 * past it, the body errors and the listing fails, whatever the server sends or says it sends.
 */
function bounded(fetchIt: typeof fetch, budget: { left: number }): typeof fetch {
  return (async (url: string | URL, init?: RequestInit) => {
    const res = await fetchIt(url, init);
    if (!res.body) return res;
    const body = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, out) {
          budget.left -= chunk.byteLength;
          if (budget.left < 0) out.error(new Error(`the MCP server's answers are larger than ${MAX_MCP_LIST_BYTES} bytes`));
          else out.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  }) as typeof fetch;
}

function transportFor(setting: McpSetting, context: ToolSetContext): Transport {
  const source = setting.mcp;
  if ('command' in source) {
    return new StdioClientTransport({ command: source.command, args: source.args ?? [], ...(source.env && { env: source.env }), stderr: 'ignore' });
  }
  const check = checkOutboundUrl(source.url, { allowPrivate: context.allowPrivate });
  if (!check.ok) throw new Error(`the MCP server ${source.url} ${check.reason}`);
  const dispatcher = guardedDispatcher({ allowPrivate: context.allowPrivate });
  // every request of the SDK goes through the guard, redirects refused (a redirect could point anywhere)
  const guardedFetch = ((url: string | URL, init?: RequestInit) => undiciFetch(url, { ...(init as object), dispatcher, redirect: 'error' } as never)) as unknown as typeof fetch;
  return new StreamableHTTPClientTransport(check.url, { fetch: bounded(guardedFetch, { left: MAX_MCP_LIST_BYTES }), requestInit: { headers: { ...(source.headers ?? {}) } } });
}
