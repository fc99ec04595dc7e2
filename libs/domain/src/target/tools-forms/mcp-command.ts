import { ToolsForm } from './form';
import { isMcpSetting } from './mcp-server';

type McpCommand = { mcp: { command: string; args?: string[]; env?: Record<string, string> } };

/**
 * A local MCP server run as a command (stdio): `{mcp: {command, args?}}`, taken by the CLI only. The
 * CLI runs and lists it in the user's own process and registers what it lists as definitions: the
 * service never runs a command, so this form is never sealed, kept or shown.
 */
export const mcpCommand: ToolsForm<'mcp-command', McpCommand, McpCommand, never, McpCommand, never> = {
  name: 'mcp-command',
  doors: ['cli'],
  shape: '{mcp: {command, args?}}',
  said: '{mcp: {command, args?}}: a local MCP server run as a command (stdio), listed by the CLI itself (never called)',
  claims: (value): value is McpCommand => isMcpSetting(value) && 'command' in value.mcp,
  read: (value) => {
    const mcp = (value as { mcp: Record<string, unknown> }).mcp;
    const unknown = Object.keys(mcp).find((k) => k !== 'command' && k !== 'args');
    if (unknown) return { problem: { field: `tools.mcp.${unknown}`, message: `tools.mcp.${unknown} is not a field of a local MCP server (command, args).` } };
    if (typeof mcp.command !== 'string' || !mcp.command.trim()) return { problem: { field: 'tools.mcp.command', message: 'tools.mcp.command is the command that starts the MCP server.' } };
    const args = mcp.args ?? [];
    if (!Array.isArray(args) || args.some((a) => typeof a !== 'string')) return { problem: { field: 'tools.mcp.args', message: 'tools.mcp.args is a list of words.' } };
    return { setting: { mcp: { command: mcp.command, args: args as string[] } } };
  },
  check: () => ({ field: 'tools.mcp', message: 'a local MCP server is listed by the CLI; the service never runs a command.' }),
  seal: () => {
    throw new Error('a local MCP server is never kept: the CLI lists it first');
  },
  open: (kept) => kept,
  view: (kept) => kept,
  outboundUrls: () => [],
  schema: {
    type: 'object', required: ['mcp'], additionalProperties: false,
    properties: {
      mcp: {
        type: 'object', required: ['command'], additionalProperties: false,
        properties: { command: { type: 'string', minLength: 1 }, args: { type: 'array', items: { type: 'string' } } },
      },
    },
  },
  viewSchema: null,
  flag: {
    flag: '--mcp-command',
    value: '<cmd>',
    help: 'the tools of a local MCP server started with this command (stdio; listed, never called)',
    body: (value) => {
      const [command, ...args] = String(value).trim().split(/\s+/);
      return command ? { mcp: { command, args } } : null;
    },
  },
};
