// Foreign bots: deterministic, rule-based imitations of deployed support chatbots with common
// guardrails, written independently of the scanner and of its lab bot, to measure how the
// scanner generalises. Each serves an OpenAI-compatible chat-completions API on 127.0.0.1.
// See README.md in this directory for the personas, the planted weaknesses and the bypasses.

import { BotOptions, crescendoBot, hardenedBot, inputFilterBot, outputFilterBot, RuleBasedBot, undefendedBot } from './bots';
import { serveChat } from './server';

export type ForeignBotKind = 'input-filter' | 'output-filter' | 'crescendo' | 'crescendo-4' | 'undefended' | 'hardened';

export const FOREIGN_BOT_KINDS: readonly ForeignBotKind[] = ['input-filter', 'output-filter', 'crescendo', 'crescendo-4', 'undefended', 'hardened'];

export interface ForeignBot {
  /** base URL, e.g. http://127.0.0.1:PORT (POST /v1/chat/completions) */
  url: string;
  name: string;
  /** OWASP LLM Top 10 2025 ids of the weaknesses planted, e.g. 'LLM07:2025' */
  planted: string[];
  /** chat-completion requests received so far (malformed ones included) */
  requests(): number;
  close(): Promise<void>;
}

export function foreignBotOptions(kind: ForeignBotKind): BotOptions {
  switch (kind) {
    case 'input-filter':
      return inputFilterBot();
    case 'output-filter':
      return outputFilterBot();
    case 'crescendo':
      return crescendoBot(3);
    case 'crescendo-4':
      return crescendoBot(4);
    case 'undefended':
      return undefendedBot();
    case 'hardened':
      return hardenedBot();
  }
}

async function start(options: BotOptions): Promise<ForeignBot> {
  const bot = new RuleBasedBot(options);
  const server = await serveChat(options.name, (messages) => bot.reply(messages));
  return { url: server.url, name: options.name, planted: [...options.planted], requests: server.requests, close: server.close };
}

export async function startForeignBot(kind: ForeignBotKind): Promise<ForeignBot> {
  if (!FOREIGN_BOT_KINDS.includes(kind)) throw new Error(`unknown foreign bot kind: ${String(kind)}`);
  return start(foreignBotOptions(kind));
}

/** A crescendo bot with any gate depth (the kinds 'crescendo' and 'crescendo-4' are 3 and 4). */
export async function startCrescendoBot(turns: number): Promise<ForeignBot> {
  return start(crescendoBot(turns));
}

export { CrescendoBot, RuleBasedBot, crescendoBot } from './bots';
export type { BotOptions, OwaspId } from './bots';
