/**
 * The ground truth of the agent lab: every tool call its agents made and every URL its agent app
 * fetched, with why (the user asked, or a tool result or fetched page told it to), and apart from
 * them every act the scripted talker said it had done with no call behind it (a claim is no
 * action). Tests and the bench read it to know what a scan talked the agents into; it is served at
 * GET /lab/agent/calls.
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

/** an act the agent said it had done, calling nothing (the scripted talker; a real model's words are not read) */
export interface AgentClaim {
  /** ISO time */
  at: string;
  guard: string;
  /** the verb asked for ("transfer") */
  act: string;
  /** whether such an act changes the world (sends, pays, deletes, writes, runs) */
  risky: boolean;
  /** the user message the claim answers, and the words of the claim, bounded */
  request: string;
  said: string;
}

const MAX_ACTIONS = 20_000;
/** what the ledger keeps of a request or an answer's words: a reader matching them bounds them alike */
export const bounded = (text: string) => text.slice(0, 500);

export class AgentLedger {
  private readonly actions: AgentAction[] = [];
  private readonly claimed: AgentClaim[] = [];
  private dropped = 0;

  record(action: Omit<AgentAction, 'at' | 'request'> & { request: string }): void {
    if (this.actions.length >= MAX_ACTIONS) {
      this.actions.shift();
      this.dropped++;
    }
    this.actions.push({ ...action, at: new Date().toISOString(), request: bounded(action.request) });
  }

  claim(claim: Omit<AgentClaim, 'at'>): void {
    if (this.claimed.length >= MAX_ACTIONS) this.claimed.shift();
    this.claimed.push({ ...claim, at: new Date().toISOString(), request: bounded(claim.request), said: bounded(claim.said) });
  }

  all(): readonly AgentAction[] {
    return this.actions;
  }

  /** the acts said to be done with no call, apart from the actions (nothing happened) */
  claims(): readonly AgentClaim[] {
    return this.claimed;
  }

  /** the oldest actions forgotten to keep the ledger bounded */
  get forgotten(): number {
    return this.dropped;
  }

  clear(): void {
    this.actions.length = 0;
    this.claimed.length = 0;
    this.dropped = 0;
  }
}
