import { readToolDefinitions, toolsView } from './target-tools';

describe("the owner's tool definitions", () => {
  it('given the OpenAI function form with a risk beside it, when read, then it is the same definition', () => {
    const fn = { type: 'function', function: { name: 'send_sms', description: 'Sends a text.', parameters: { type: 'object', properties: { to: { type: 'string' } } } }, risk: 'exfiltration' };
    expect(readToolDefinitions([fn])).toEqual({ tools: [{ name: 'send_sms', description: 'Sends a text.', parameters: fn.function.parameters, risk: 'exfiltration' }] });
  });
  it('given a definition without parameters or description, when read, then it takes no arguments and says nothing', () => {
    expect(readToolDefinitions([{ name: 'ping', risk: 'read' }])).toEqual({ tools: [{ name: 'ping', description: '', parameters: { type: 'object', properties: {} }, risk: 'read' }] });
  });
  it('given a schema too large or too deep, when read, then it is refused', () => {
    const big = { type: 'object', properties: { a: { type: 'string', description: 'x'.repeat(20_000) } } };
    expect(readToolDefinitions([{ name: 'a', parameters: big, risk: 'read' }])).toEqual({ problem: { field: 'tools[0].parameters', message: expect.stringMatching(/larger than/) } });
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 15; i++) deep = { type: 'object', properties: { x: deep } };
    expect(readToolDefinitions([{ name: 'a', parameters: deep, risk: 'read' }])).toEqual({ problem: { field: 'tools[0].parameters', message: expect.stringMatching(/deeper/) } });
  });
  it('shows an MCP source by its URL and header names, never the sealed headers', () => {
    expect(toolsView({ mcp: { url: 'https://m.example/mcp', headers_encrypted: 'v1.secret', header_names: ['Authorization'] } })).toEqual({ mcp: { url: 'https://m.example/mcp', header_names: ['Authorization'] } });
    expect(toolsView(undefined)).toBeNull();
  });
});
