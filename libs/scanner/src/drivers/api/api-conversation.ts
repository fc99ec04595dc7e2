import { ChatDriver, Conversation } from '../../chat-driver';
import { ApiDriverOptions, ApiTransport } from './api-transport';
import type { ChatTurn } from '@gauntlet/domain';

/** sends the whole conversation so far (ending with the new user turn) and returns the answer */
export type CompleteTurns = (turns: ChatTurn[], signal?: AbortSignal) => Promise<string>;

/**
 * A model API has no memory between requests: the conversation is the history the driver
 * keeps and sends each time. A failed send leaves the history as it was.
 */
export class ApiConversation implements Conversation {
  private turns: ChatTurn[] = [];
  private closed = false;

  constructor(private readonly complete: CompleteTurns) {}

  async send(message: string, options: { signal?: AbortSignal } = {}): Promise<string> {
    if (this.closed) throw new Error('this conversation is closed');
    const turns: ChatTurn[] = [...this.turns, { role: 'user', content: message }];
    const answer = await this.complete(turns, options.signal);
    this.turns = [...turns, { role: 'assistant', content: answer }];
    return answer;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.turns = [];
  }
}

/**
 * What every model-API driver shares: one transport (guard, pacing, retries) for all its
 * conversations, each conversation a history sent whole. A driver only says how to complete.
 */
export abstract class ApiChatDriver implements ChatDriver {
  protected readonly transport: ApiTransport;

  constructor(options: ApiDriverOptions) {
    this.transport = new ApiTransport(options);
  }

  async openConversation(): Promise<Conversation> {
    this.transport.assertOpen();
    return new ApiConversation((turns, signal) => this.complete(turns, signal));
  }

  concurrency(): number {
    return this.transport.concurrency();
  }

  throughput(): number | null {
    return this.transport.throughput();
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  protected abstract complete(turns: ChatTurn[], signal?: AbortSignal): Promise<string>;
}
