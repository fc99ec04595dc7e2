import { takesTools, ToolDefinition, toolsFormOf, toolsOf } from '@gauntlet/domain';
import { toolsFor } from '../agents/registry';
import { RunScanInput } from './types';

/** how long listing an MCP server's tools may take before the scan goes on without them */
const LIST_TIMEOUT_MS = 15_000;

/**
 * The tools a scan offers the target's agent, resolved once: the target's setting, or decoy where
 * its API format takes tools; none for chat pages and the custom http format. An MCP server that
 * cannot be read leaves the scan without tools, and says why (the scan's note), as it says which
 * listed tools it left out.
 */
export async function resolveAgentTools(input: RunScanInput): Promise<{ tools: ToolDefinition[]; note: string | null }> {
  const { target } = input;
  if (!takesTools(target)) return { tools: [], note: null };
  const setting = toolsOf(target);
  try {
    const listed = await toolsFor(setting, { allowPrivate: input.allowPrivate ?? false, timeoutMs: LIST_TIMEOUT_MS, signal: input.signal });
    return { tools: listed.tools, note: listed.leftOut ? `Not every tool listed was offered: ${listed.leftOut}.` : null };
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return { tools: [], note: `The tools could not be read (${why.slice(0, 300)}): the target was scanned without tools, and the probes that need them were skipped.` };
  }
}

/**
 * The tools a plan counts with, without calling anything: the target's own definitions or the decoy
 * set; an MCP server's are listed only when a scan runs ('unlisted': the plan ranges over both).
 */
export async function agentToolsToPlan(target: Pick<RunScanInput['target'], 'scan_mode' | 'api_format' | 'tools'>): Promise<ToolDefinition[] | 'unlisted'> {
  if (!takesTools(target)) return [];
  const setting = toolsOf(target);
  const form = toolsFormOf(setting);
  if (form === 'mcp' || form === 'mcp-command') return 'unlisted';
  return (await toolsFor(setting, { allowPrivate: false, timeoutMs: LIST_TIMEOUT_MS })).tools;
}
