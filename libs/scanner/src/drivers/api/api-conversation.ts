import type { AgentAnswer, AgentTurn, ChatTurn, ToolDefinition, Turn } from '@gauntlet/domain';
import { AgentSetup, ChatDriver, Conversation, TargetProtocolError } from '../../chat-driver';
import { ApiDriverOptions, ApiTransport } from './api-transport';

/** sends the whole conversation so far (ending with the new user turn) and returns the answer */
export type CompleteTurns = (turns: ChatTurn[], signal?: AbortSignal) => Promise<string>;
/** the same with tools offered: the answer's text and the calls it made */
export type CompleteWithTools = (turns: AgentTurn[], tools: readonly ToolDefinition[], signal?: AbortSignal) => Promise<AgentAnswer>;

/** What a conversation needs from its driver to run an agent's loop. */
interface AgentLoop {
  setup: AgentSetup;
  complete: CompleteWithTools;
  /** whether the target's API was found to refuse tools (then the loop is not run) */
  refused(): boolean;
  /** a request with tools was answered 400 and the same without tools was not */
  refuse(reason: string): void;
}

/** a history with tools as a plain chat: the calls and their results left out */
const plain = (turns: readonly AgentTurn[]): ChatTurn[] =>
  turns.filter((t): t is AgentTurn & { role: 'user' | 'assistant' } => t.role !== 'tool' && !(t.role === 'assistant' && t.tool_calls?.length && !t.content)).map((t) => ({ role: t.role, content: t.content }));

/**
 * A model API has no memory between requests: the conversation is the history the driver
 * keeps and sends each time. A failed send leaves the history as it was. With an agent setup,
 * one message runs the agent's loop: the request offers the tools; each call the answer makes is
 * answered by Gauntlet's runtime (nothing is executed) and sent back, until the agent answers
 * without calling or the step budget is spent.
 */
export class ApiConversation implements Conversation {
  private turns: AgentTurn[] = [];
  private lastActions: Turn[] = [];
  private closed = false;

  constructor(private readonly complete: CompleteTurns, private readonly agent?: AgentLoop) {}

  async send(message: string, options: { signal?: AbortSignal } = {}): Promise<string> {
    if (this.closed) throw new Error('this conversation is closed');
    this.lastActions = [];
    const turns: AgentTurn[] = [...this.turns, { role: 'user', content: message }];
    if (this.agent && !this.agent.refused()) {
      const done = await this.loop(this.agent, turns, options.signal);
      if (done !== null) return done;
    }
    const answer = await this.complete(plain(turns), options.signal);
    this.turns = [...turns, { role: 'assistant', content: answer }];
    return answer;
  }

  actions(): Turn[] {
    return this.lastActions;
  }

  /** the agent's loop for one message; null when the API refused tools (the message goes plain) */
  private async loop(agent: AgentLoop, start: AgentTurn[], signal?: AbortSignal): Promise<string | null> {
    const { setup } = agent;
    let turns = start;
    const actions: Turn[] = [];
    for (let step = 1; ; step++) {
      let answer: AgentAnswer;
      try {
        answer = await agent.complete(turns, setup.tools, signal);
      } catch (err) {
        if (step === 1 && !this.turns.some((t) => t.tool_calls?.length) && (await this.refusesTools(err, start, signal))) {
          agent.refuse(err instanceof Error ? err.message : String(err));
          return null;
        }
        throw err;
      }
      if (!answer.calls.length) {
        this.turns = [...turns, { role: 'assistant', content: answer.text }];
        this.lastActions = actions;
        return answer.text;
      }
      const called: AgentTurn = { role: 'assistant', content: answer.text, tool_calls: answer.calls };
      const results: AgentTurn[] = [];
      for (const call of answer.calls) results.push({ role: 'tool', tool_call_id: call.id, name: call.name, content: await setup.answer(call) });
      turns = [...turns, called, ...results];
      const last = step >= setup.maxSteps;
      // at the budget's end the call's own words are the answer: recorded once, as the answer
      actions.push(last ? { ...called, content: '' } : called, ...results);
      if (last) {
        this.turns = turns;
        this.lastActions = actions;
        return answer.text;
      }
    }
  }

  /**
   * Whether a failed request with tools failed for the tools: an HTTP 400 that the same request
   * without them does not get (a filter that refuses the message itself refuses it either way).
   */
  private async refusesTools(err: unknown, turns: AgentTurn[], signal?: AbortSignal): Promise<boolean> {
    if (!(err instanceof TargetProtocolError) || err.failure?.kind !== 'http' || (err.failure.status !== 400 && err.failure.status !== 422)) return false;
    try {
      await this.complete(plain(turns), signal);
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.turns = [];
  }
}

/**
 * What every model-API driver shares: one transport (guard, pacing, retries) for all its
 * conversations, each conversation a history sent whole. A driver only says how to complete,
 * and, where its API has tool calling, how to complete with tools.
 */
export abstract class ApiChatDriver implements ChatDriver {
  protected readonly transport: ApiTransport;
  /** why the target's API refused tools, once it did: every later conversation goes without them */
  private toolsRefusal: string | null = null;

  constructor(options: ApiDriverOptions) {
    this.transport = new ApiTransport(options);
  }

  async openConversation(agent?: AgentSetup): Promise<Conversation> {
    this.transport.assertOpen();
    const withTools = this.completeWithTools;
    const loop: AgentLoop | undefined =
      agent && agent.tools.length && withTools
        ? {
            setup: agent,
            complete: (turns, tools, signal) => withTools.call(this, turns, tools, signal),
            refused: () => this.toolsRefusal !== null,
            refuse: (reason) => {
              if (this.toolsRefusal !== null) return;
              this.toolsRefusal = reason;
              agent.toolsRefused?.(reason);
            },
          }
        : undefined;
    return new ApiConversation((turns, signal) => this.complete(turns, signal), loop);
  }

  concurrency(): number {
    return this.transport.concurrency();
  }

  throughput(): number | null {
    return this.transport.throughput();
  }

  answerTime(): number | null {
    return this.transport.answerTime();
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  protected abstract complete(turns: ChatTurn[], signal?: AbortSignal): Promise<string>;
  /** absent where the API has no tool calling: conversations are then plain whatever is offered */
  protected completeWithTools?(turns: AgentTurn[], tools: readonly ToolDefinition[], signal?: AbortSignal): Promise<AgentAnswer>;
}
