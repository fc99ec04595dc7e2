import type { PageObservation, TargetFailure } from '@gauntlet/domain';

/**
 * The ChatDriver port: how the engine talks to a target, whatever it is (a model API or a
 * chat page in a real browser). One conversation = one fresh context (empty history, or a
 * new browser context), kept for multi-turn probes.
 */
export interface ChatDriver {
  /** a fresh conversation with no memory of earlier ones */
  openConversation(): Promise<Conversation>;
  /**
   * Conversations worth having in flight now, as the driver's pacing has learnt the target
   * (its latency and limits); absent: the engine keeps its profile's number.
   */
  concurrency?(): number;
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
