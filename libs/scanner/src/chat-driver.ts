import type { PageObservation, TargetFailure, ToolCall, ToolDefinition, Turn } from '@gauntlet/domain';

/**
 * What an attempt offers an agent: the tools, the runtime Gauntlet plays for them (it answers
 * every call itself with a result it writes; nothing is ever executed) and how many tool rounds
 * one message may take before the driver stops asking for more.
 */
export interface AgentSetup {
  tools: readonly ToolDefinition[];
  /** the result a call gets, written by Gauntlet (a poisoned page for an indirect-injection probe, a plain receipt otherwise) */
  answer(call: ToolCall): string | Promise<string>;
  /** the most model requests one user message may take (the first one included) */
  maxSteps: number;
  /**
   * Told once per driver when the target's API refuses tools (HTTP 400 to a request with tools
   * that it answers without them): the driver goes on without tools from then on.
   */
  toolsRefused?(reason: string): void;
}

/**
 * The ChatDriver port: how the engine talks to a target, whatever it is (a model API or a
 * chat page in a real browser). One conversation = one fresh context (empty history, or a
 * new browser context), kept for multi-turn probes.
 */
export interface ChatDriver {
  /**
   * a fresh conversation with no memory of earlier ones; `agent` offers tools where the target's
   * API takes them (drivers that cannot offer tools ignore it: their `actions` stay empty)
   */
  openConversation(agent?: AgentSetup): Promise<Conversation>;
  /**
   * Conversations worth having in flight now, as the driver's pacing has learnt the target
   * (its latency and limits); absent: the engine keeps its profile's number.
   */
  concurrency?(): number;
  /**
   * Requests a second the target takes at the pace kept now (the conversations in flight over the
   * time an answer takes, within the rate it admits); null until it has answered; absent: not
   * known. The one model of the target the scan's time left is read from.
   */
  throughput?(): number | null;
  /**
   * How long the target's answers have taken lately (milliseconds, smoothed), null before the
   * first; absent: not known. A wait for an answer is allowed longer by it (answer-deadline.ts).
   */
  answerTime?(): number | null;
  /** releases everything (browser, sockets); idempotent */
  close(): Promise<void>;
}

export interface Conversation {
  /** sends one user message and resolves with the whole answer (streamed answers awaited to the end) */
  send(message: string, options?: { signal?: AbortSignal }): Promise<string>;
  /**
   * What the target did with the last answer beyond its text, where a driver can see it (a chat
   * page: the markup it rendered, scripts that ran, requests it made); null when nothing showed.
   */
  observe?(): PageObservation | null;
  /**
   * The tool calls and the results Gauntlet answered them with during the last `send`, in order
   * (assistant turns with `tool_calls`, then `tool` turns), before the answer `send` returned;
   * empty or absent when the agent called nothing.
   */
  actions?(): Turn[];
  /** a picture of the conversation as the target shows it (chat pages: PNG of the viewport) */
  screenshot?(): Promise<Buffer | null>;
  close(): Promise<void>;
}

/**
 * What went wrong, as data, so a preflight can say what to change without parsing messages; and
 * the two errors drivers raise (the domain holds them: the API formats' readers raise them too).
 */
export type { TargetFailure };
export { TargetProtocolError, TargetUnavailableError } from '@gauntlet/domain';
