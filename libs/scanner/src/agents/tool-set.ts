import type { OpenedTools, ToolDefinition, ToolsFormName } from '@gauntlet/domain';

/**
 * The tools a scan offers, as the engine is given them: the target's `tools` setting with its
 * sealed parts opened (MCP headers), or, from the CLI only, an MCP server run as a local command
 * (stdio). Its forms are the domain's (target/target-tools.ts).
 */
export type ScanTools = OpenedTools;

/** What a tool set needs to list its tools: the outbound rules, a deadline, the scan's stop. */
export interface ToolSetContext {
  allowPrivate: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** The tools a set offers, and what it read but does not offer (the scan says it in its note). */
export interface ListedTools {
  tools: ToolDefinition[];
  /** what was listed and left out or cut, and why, in words (`tools` bounded as registered ones are) */
  leftOut?: string;
}

/**
 * The ToolSet port: where a scan's tools come from. A new source is one file beside the others
 * and one line in registry.ts.
 */
export interface ToolSet<S extends ScanTools = ScanTools> {
  readonly name: string;
  /** the forms of the setting this set lists (the domain's names) */
  readonly forms: readonly ToolsFormName[];
  list(tools: S, context: ToolSetContext): Promise<ListedTools>;
}
