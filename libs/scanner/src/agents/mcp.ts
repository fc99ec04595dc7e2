import type { ToolDefinition } from '@gauntlet/domain';
import { checkOutboundUrl, guardedDispatcher } from '@gauntlet/outbound';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { fetch as undiciFetch } from 'undici';
import { inferredRisk, McpToolHints } from './tool-kinds';
import { ScanTools, ToolSet, ToolSetContext } from './tool-set';

type McpSetting = Extract<ScanTools, { mcp: unknown }>;
/** at most this many tools are read from one server (pages included) */
const MAX_LISTED = 64;
const MAX_PAGES = 8;

/**
 * The tools an MCP server lists, read with the official SDK: over Streamable HTTP through the
 * outbound guard (the same rules as the target's own API), or, from the CLI, a local server run
 * as a command (stdio). Only `tools/list` is asked, within a deadline; no tool is ever called.
 * Each tool's risk is inferred from its name, description and annotations (tool-kinds.ts).
 */
export const mcpToolSet: ToolSet<McpSetting> = {
  name: 'mcp',
  accepts: (tools): tools is McpSetting => typeof tools === 'object' && tools !== null && !Array.isArray(tools) && 'mcp' in tools,
  list: listMcpTools,
};

export async function listMcpTools(setting: McpSetting, context: ToolSetContext): Promise<ToolDefinition[]> {
  const transport = transportFor(setting, context);
  const client = new Client({ name: 'gauntlet', version: '1' }, { capabilities: {} });
  const deadline = AbortSignal.timeout(context.timeoutMs);
  const signal = context.signal ? AbortSignal.any([context.signal, deadline]) : deadline;
  try {
    await client.connect(transport, { signal, timeout: context.timeoutMs });
    const tools: ToolDefinition[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES && tools.length < MAX_LISTED; page++) {
      const listed = await client.listTools(cursor ? { cursor } : undefined, { signal, timeout: context.timeoutMs });
      for (const t of listed.tools) {
        if (tools.length >= MAX_LISTED) break;
        const description = (t.description ?? t.title ?? '').slice(0, 1024);
        const parameters = t.inputSchema && t.inputSchema.type === 'object' ? (t.inputSchema as Record<string, unknown>) : { type: 'object', properties: {} };
        tools.push({ name: t.name, description, parameters, risk: inferredRisk({ name: t.name, description }, (t.annotations ?? {}) as McpToolHints) });
      }
      cursor = listed.nextCursor;
      if (!cursor) break;
    }
    return tools;
  } finally {
    await client.close().catch(() => undefined);
  }
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
  return new StreamableHTTPClientTransport(check.url, { fetch: guardedFetch, requestInit: { headers: { ...(source.headers ?? {}) } } });
}
