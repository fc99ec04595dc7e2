/**
 * What the page script offers the driver, as `window.__gauntlet` in every frame of a scanned page
 * (main.ts installs it): the types both sides share. The driver reads these through Playwright's
 * evaluate; nothing here runs in Node.
 */
export type Side = 'user' | 'bot';

/** the chat input found, and how sure (a configured selector is 100) */
export interface FoundInput {
  el: Element;
  score: number;
}

/** where a dialog or console line came from: the bot's answer, our own message, elsewhere in the page, or unknown */
export interface Origin {
  kind: 'dialog' | 'console';
  detail: string;
  where: 'answer' | 'ours' | 'page' | 'unknown';
}

/** What the page script read of the answer once it was over (`observation()`). */
export interface AnswerReading {
  /** the bot's message's elements that load, link or run */
  markup: string;
  attribution: 'bot_message' | 'uncertain';
  reason: string;
  /** the URLs the bot's message loads or links, and those our own message does */
  urls: string[];
  oursUrls: string[];
  /** whether the bot's message, and ours, hold elements that can run script */
  scripts: boolean;
  oursScripts: boolean;
  /** where each dialog and console line came from */
  origins: Origin[];
}

/** One look at the answer while it arrives (`read()`). */
export interface AnswerSoFar {
  text: string;
  /** a typing indicator shows that was not there before we sent */
  indicator: boolean;
  /** the chat input is held (disabled, read-only) */
  busy: boolean;
  /** the page's own time since the send, in ticks of TICK_MS */
  ticks: number;
  /** the answer added markup (an answer of markup alone shows no text) */
  markup?: boolean;
  attribution?: 'bot_message' | 'uncertain';
  reason?: string;
}

export interface PageApi {
  findInput(selector: string | null): FoundInput | null;
  findSend(input: Element, selector: string | null): Element | null;
  findLauncher(): Element | null;
  /** notes the page as it is before a message is sent: what is there already is never the answer */
  snapshot(input: Element, responseSelector: string | null): void;
  /** a frame tells its parent of a dialog or console line, naming itself as where it came from */
  noteOrigin(kind: Origin['kind'], detail: string, el: Element | null): void;
  observation(): AnswerReading;
  /** has the message left the input */
  sent(): boolean;
  read(): AnswerSoFar;
}

/** how often the page script counts the page's own time */
export const TICK_MS = 50;

declare global {
  interface Window {
    __gauntlet?: PageApi;
  }
}
