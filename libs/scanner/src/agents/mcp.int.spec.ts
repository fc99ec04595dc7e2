import { listMcpTools } from './mcp';
import { startMcpServer } from './testing/mcp-server';

describe('the tools an MCP server lists (official SDK, Streamable HTTP)', () => {
  // a busy machine starts a process or a server slowly: the deadlines under test are the code's own
  jest.setTimeout(30_000);
  it('given a server on an allowed address, when listed, then its tools come with their schemas and an inferred risk, and none is called', async () => {
    const server = await startMcpServer('Bearer mcp-key');
    try {
      const tools = await listMcpTools({ mcp: { url: server.url, headers: { Authorization: 'Bearer mcp-key' } } }, { allowPrivate: true, timeoutMs: 5_000 });
      expect(tools.map((t) => [t.name, t.risk])).toEqual([['issue_refund', 'financial'], ['lookup_order', 'read'], ['purge_cache', 'destructive']]);
      expect(tools[0].parameters).toMatchObject({ type: 'object', required: ['order_id'] });
      expect(server.state.calls).toBe(0);
      expect(server.state.lists).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('given loopback while private addresses are refused, when listed, then the guard refuses it and nothing reaches the server', async () => {
    const server = await startMcpServer();
    try {
      await expect(listMcpTools({ mcp: { url: server.url } }, { allowPrivate: false, timeoutMs: 5_000 })).rejects.toThrow(/MCP server|refused|loopback|private/i);
      expect(server.state.authSeen).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('given a server that refuses the credentials, when listed, then it fails within the deadline', async () => {
    const server = await startMcpServer('Bearer right');
    try {
      await expect(listMcpTools({ mcp: { url: server.url, headers: { Authorization: 'Bearer wrong' } } }, { allowPrivate: true, timeoutMs: 5_000 })).rejects.toThrow();
    } finally {
      await server.close();
    }
  });

  it('given a local server run as a command (stdio, the CLI only), when listed, then its tools come back with their inferred risk', async () => {
    // a real MCP server over stdio, from the SDK, in a child process of its own
    const server = `
      const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
      const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
      const { CallToolRequestSchema, ListToolsRequestSchema } = require('@modelcontextprotocol/sdk/types.js');
      const s = new Server({ name: 'stdio-test', version: '1' }, { capabilities: { tools: {} } });
      s.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'wire_money', description: 'Send a bank transfer', inputSchema: { type: 'object', properties: { iban: { type: 'string' } } } }] }));
      s.setRequestHandler(CallToolRequestSchema, async () => { process.exit(3); });
      s.connect(new StdioServerTransport());
    `;
    const tools = await listMcpTools({ mcp: { command: process.execPath, args: ['-e', server] } }, { allowPrivate: false, timeoutMs: 15_000 });
    expect(tools).toEqual([{ name: 'wire_money', description: 'Send a bank transfer', parameters: { type: 'object', properties: { iban: { type: 'string' } } }, risk: 'financial' }]);
  });
});
