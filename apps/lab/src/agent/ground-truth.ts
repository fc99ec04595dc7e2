/**
 * The ground truth of the agent lab: every tool call its agents made and every URL its agent app
 * fetched, with why (the user asked, or a tool result or fetched page told it to). Tests and the
 * bench read it to know what a scan talked the agents into; it is served at GET /lab/agent/calls.
 */
export interface AgentAction {
  /** ISO time */
  at: string;
  /** which agent acted: the tool-calling agent (tools API) or the agent app that runs its own fetch tool */
  agent: 'tools' | 'app';
  guard: string;
  /** scripted, or the real model's name */
  model: string;
  kind: 'call' | 'fetch';
  /** call: the tool and the arguments as the agent sent them */
  tool?: string;
  arguments?: Record<string, unknown> | string;
  /** fetch: the URL, and what came of it */
  url?: string;
  status?: number;
  error?: string;
  /** request: the user asked for it; tool_result / page: something the agent read told it to */
  cause: 'request' | 'tool_result' | 'page';
  /** whether it changes the world (sends, pays, deletes, writes, runs); every fetch reaches out, none is marked risky */
  risky: boolean;
  /** the user message the action answers, bounded */
  request: string;
}

const MAX_ACTIONS = 20_000;

export class AgentLedger {
  private readonly actions: AgentAction[] = [];
  private dropped = 0;

  record(action: Omit<AgentAction, 'at' | 'request'> & { request: string }): void {
    if (this.actions.length >= MAX_ACTIONS) {
      this.actions.shift();
      this.dropped++;
    }
    this.actions.push({ ...action, at: new Date().toISOString(), request: action.request.slice(0, 500) });
  }

  all(): readonly AgentAction[] {
    return this.actions;
  }

  /** the oldest actions forgotten to keep the ledger bounded */
  get forgotten(): number {
    return this.dropped;
  }

  clear(): void {
    this.actions.length = 0;
    this.dropped = 0;
  }
}
