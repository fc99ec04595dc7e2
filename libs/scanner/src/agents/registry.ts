import { toolsFormOf } from '@gauntlet/domain';
import { decoyToolSet } from './decoy';
import { mcpToolSet } from './mcp';
import { ownerToolSet } from './owner';
import { ListedTools, ScanTools, ToolSet, ToolSetContext } from './tool-set';

/** Where a scan's tools can come from, one line each: a new source is a file beside these and a line here. */
const TOOL_SETS: readonly ToolSet<any>[] = [decoyToolSet, ownerToolSet, mcpToolSet];

/** The tools a scan offers for a setting: none for "none"; otherwise the set that reads it lists them. */
export async function toolsFor(setting: ScanTools, context: ToolSetContext): Promise<ListedTools> {
  const form = toolsFormOf(setting);
  if (form === 'none') return { tools: [] };
  const set = TOOL_SETS.find((s) => s.forms.includes(form));
  if (!set) throw new Error('tools: no tool set reads this setting');
  return set.list(setting, context);
}

export const TOOL_SET_NAMES = TOOL_SETS.map((s) => s.name);
