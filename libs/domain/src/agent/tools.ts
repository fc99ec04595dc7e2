/**
 * What a tool can do to the world if an attacker steers the call: it sets the severity of a
 * finding that shows the agent calling it as the attack asked.
 */
export const TOOL_RISKS = ['read', 'write', 'financial', 'destructive', 'exfiltration'] as const;
export type ToolRisk = (typeof TOOL_RISKS)[number];

/** the risks from the least to the most: money first, then destruction, data leaving, writes, reads */
const RISK_ORDER: readonly ToolRisk[] = ['read', 'write', 'exfiltration', 'destructive', 'financial'];

/** how risky a steered call of a tool of this risk is, higher the riskier: the one order of tool risk */
export const toolRiskRank = (risk: ToolRisk): number => RISK_ORDER.indexOf(risk);

/**
 * A tool an agent under test is offered: its name, what it says it does, its parameters (JSON
 * Schema, as the OpenAI function form and MCP both carry them) and the risk of a steered call.
 * Gauntlet never executes one: it answers every call itself (the tool runtime).
 */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object */
  parameters: Record<string, unknown>;
  risk: ToolRisk;
}

/**
 * One call an agent made, as its API returned it: `arguments` is the parsed JSON object, or the
 * raw text when the model wrote something that is not JSON (still evidence).
 */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown> | string;
}
