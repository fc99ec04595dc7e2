import { listMcpTools } from './mcp';
import { startMcpServer } from './testing/mcp-server';

describe('the tools an MCP server lists (official SDK, Streamable HTTP)', () => {
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
});
