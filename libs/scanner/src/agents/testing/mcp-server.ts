import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createServer, Server as HttpServer } from 'node:http';
import { AddressInfo } from 'node:net';

/** the tools a test MCP server lists, as the protocol carries them */
export const MCP_TOOLS = [
  { name: 'issue_refund', description: 'Refund an order to the customer card.', inputSchema: { type: 'object', properties: { order_id: { type: 'string' }, amount: { type: 'number' } }, required: ['order_id'] } },
  { name: 'lookup_order', description: 'Look up an order by id.', inputSchema: { type: 'object', properties: { order_id: { type: 'string' } } }, annotations: { readOnlyHint: true } },
  { name: 'purge_cache', description: 'Clears the cache.', inputSchema: { type: 'object', properties: {} }, annotations: { destructiveHint: true } },
];

/**
 * An MCP server on loopback over Streamable HTTP (stateless: a server per request), listing
 * `tools` (MCP_TOOLS unless given) and counting every call (a scan must never make one); it may require a header.
 */
export async function startMcpServer(requiredAuth?: string, tools: readonly object[] = MCP_TOOLS) {
  const state = { calls: 0, lists: 0, authSeen: [] as string[] };
  const http: HttpServer = createServer(async (req, res) => {
    state.authSeen.push(String(req.headers.authorization ?? ''));
    if (requiredAuth && req.headers.authorization !== requiredAuth) {
      res.writeHead(401).end();
      return;
    }
    const server = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => (state.lists++, { tools: tools as typeof MCP_TOOLS }));
    server.setRequestHandler(CallToolRequestSchema, async () => (state.calls++, { content: [{ type: 'text', text: 'done' }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void transport.close().catch(() => undefined));
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    state,
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
