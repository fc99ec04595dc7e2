import { MAX_TOOL_SCHEMA_BYTES, MAX_TOOLS } from '@gauntlet/domain';
import { resolveAgentTools } from '../engine/agent-tools';
import type { RunScanInput } from '../engine/types';
import { listMcpTools, MAX_MCP_LIST_BYTES } from './mcp';
import { startMcpServer } from './testing/mcp-server';

describe('the tools an MCP server lists (official SDK, Streamable HTTP)', () => {
  // a busy machine starts a process or a server slowly: the deadlines under test are the code's own
  jest.setTimeout(30_000);
  it('given a server on an allowed address, when listed, then its tools come with their schemas and an inferred risk, and none is called', async () => {
    const server = await startMcpServer('Bearer mcp-key');
    try {
      const { tools, leftOut } = await listMcpTools({ mcp: { url: server.url, headers: { Authorization: 'Bearer mcp-key' } } }, { allowPrivate: true, timeoutMs: 5_000 });
      expect(leftOut).toBeUndefined();
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

  it('given a server listing what a registered tool may not be, when listed, then those are left out and said, and only the first 32 offered', async () => {
    const nested = (levels: number): Record<string, unknown> => (levels ? { type: 'object', properties: { x: nested(levels - 1) } } : { type: 'string' });
    const listed = [
      { name: 'bad name!', inputSchema: { type: 'object', properties: {} } },
      { name: 'huge_schema', inputSchema: { type: 'object', properties: { x: { type: 'string', description: 'x'.repeat(MAX_TOOL_SCHEMA_BYTES) } } } },
      { name: 'deep_schema', inputSchema: nested(13) },
      { name: 'chatty', description: 'y'.repeat(5_000), inputSchema: { type: 'object', properties: {} } },
      { name: 'chatty', inputSchema: { type: 'object', properties: {} } },
      ...Array.from({ length: 40 }, (_, i) => ({ name: `tool_${i}`, inputSchema: { type: 'object', properties: {} } })),
    ];
    const server = await startMcpServer(undefined, listed);
    try {
      const { tools, leftOut } = await listMcpTools({ mcp: { url: server.url } }, { allowPrivate: true, timeoutMs: 10_000 });
      expect(tools).toHaveLength(MAX_TOOLS);
      expect(tools.map((t) => t.name)).toEqual(['chatty', ...Array.from({ length: 31 }, (_, i) => `tool_${i}`)]);
      expect(tools[0].description).toHaveLength(1024);
      // the scan says it in its note, and goes on with the tools that pass
      const scanned = await resolveAgentTools({ target: { scan_mode: 'api', api_format: 'openai', tools: { mcp: { url: server.url } } }, allowPrivate: true, signal: new AbortController().signal } as unknown as RunScanInput);
      expect(scanned.tools).toHaveLength(MAX_TOOLS);
      expect(scanned.note).toBe(`Not every tool listed was offered: ${leftOut}.`);
      expect(leftOut).toMatch(/^the MCP server's tools are held to the rules of registered ones: 4 left out: "bad name!" \(its name is a letter then up to 63 letters, digits, _ or -\), "huge_schema" \(its parameters is larger than 16384 bytes\), "deep_schema" \(its parameters nests deeper than 12 levels\), "chatty" \(its name is listed twice\); only the first 32 are offered \(9 more listed\); 1 description cut to 1024 characters$/);
    } finally {
      await server.close();
    }
  });

  it('given a server whose list is larger than it may be, when listed, then the listing fails saying so, before it is read whole', async () => {
    const listed = Array.from({ length: 30 }, (_, i) => ({ name: `tool_${i}`, inputSchema: { type: 'object', properties: { x: { type: 'string', description: 'z'.repeat(15_000) } } } }));
    const server = await startMcpServer(undefined, [...listed, ...listed.map((t) => ({ ...t, name: `${t.name}_again` })), ...listed.map((t) => ({ ...t, name: `${t.name}_more` }))]);
    try {
      await expect(listMcpTools({ mcp: { url: server.url } }, { allowPrivate: true, timeoutMs: 10_000 })).rejects.toThrow(`the MCP server's answers are larger than ${MAX_MCP_LIST_BYTES} bytes`);
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
    const { tools } = await listMcpTools({ mcp: { command: process.execPath, args: ['-e', server] } }, { allowPrivate: false, timeoutMs: 15_000 });
    expect(tools).toEqual([{ name: 'wire_money', description: 'Send a bank transfer', parameters: { type: 'object', properties: { iban: { type: 'string' } } }, risk: 'financial' }]);
  });
});
