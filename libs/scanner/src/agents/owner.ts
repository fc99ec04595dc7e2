import type { ToolDefinition } from '@gauntlet/domain';
import { ToolSet } from './tool-set';

/** The target owner's own definitions (their agent's real schemas, a risk each), offered as given. */
export const ownerToolSet: ToolSet<ToolDefinition[]> = {
  name: 'owner',
  forms: ['definitions'],
  list: async (tools) => ({ tools: tools.map((t) => ({ ...t })) }),
};
