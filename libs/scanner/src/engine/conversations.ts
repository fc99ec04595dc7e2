import type { Turn } from '@gauntlet/domain';
import { answerDeadline } from '../answer-deadline';
import { AgentSetup, ChatDriver, Conversation } from '../chat-driver';
import { Waits } from './waits';

/**
 * The scan's conversations with the target: each one bounded by the scan's waits, all of them
 * abandoned together when the scan stops.
 */
export class Conversations {
  /** the conversations in flight */
  private readonly inFlight = new Set<AbortController>();

  constructor(
    private readonly driver: ChatDriver,
    private readonly waits: Waits,
    private readonly messageTimeoutMs: number,
    stop: AbortSignal,
  ) {
    stop.addEventListener('abort', () => this.inFlight.forEach((c) => c.abort()), { once: true });
  }

  /**
   * one conversation: `turns` sent in order, each answer awaited; throws when the target does not
   * answer. With an agent setup the agent is offered tools: what it did for a message (its calls
   * and the results it was given) is recorded between the message and the answer.
   */
  async converse(turns: readonly string[], agent?: AgentSetup): Promise<{ transcript: Turn[]; latency: number }> {
    const { waits, driver } = this;
    // the scan's wait for an answer, or longer for a slow target with conversations queued at it
    const deadline = () => answerDeadline(this.messageTimeoutMs, driver.answerTime?.() ?? null, this.inFlight.size);
    const started = performance.now();
    // one signal per conversation: drivers hang listeners on it, and they go away with it
    // (a scan-wide signal would collect thousands of them)
    const own = new AbortController();
    this.inFlight.add(own);
    const transcript: Turn[] = [];
    let finished = false;
    try {
      const conversation: Conversation = await waits.bounded(() => driver.openConversation(agent), deadline());
      try {
        for (const message of turns) {
          // an agent's message may take a request per tool round
          const answer = await waits.bounded(() => conversation.send(message, { signal: own.signal }), deadline() * (agent?.maxSteps ?? 1));
          const observed = conversation.observe?.() ?? null;
          const actions = agent ? (conversation.actions?.() ?? []) : [];
          transcript.push({ role: 'user', content: message }, ...actions, { role: 'assistant', content: answer, ...(observed && { observed }) });
        }
        finished = true;
      } finally {
        void waits.bounded(() => conversation.close(), 5_000, false).catch(() => undefined);
      }
    } finally {
      this.inFlight.delete(own);
      if (!finished) own.abort(); // a timed-out or failed message still in flight is abandoned
    }
    return { transcript, latency: Math.round(performance.now() - started) };
  }
}
