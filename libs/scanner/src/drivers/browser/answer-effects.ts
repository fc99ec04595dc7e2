import type { PageObservation } from '@gauntlet/domain';
import type { Page } from 'playwright';
import type { AnswerReading } from './page/api';

/** What a chat page did while an answer showed, and which of it the bot's own message caused. */

export type { AnswerReading };
export type Effect = NonNullable<PageObservation['effects']>[number];

/** Effects recorded per answer, at most: a page flooding requests or dialogs must not flood the record. */
const MAX_EFFECTS = 20;

/**
 * Watches one page for what an answer may do there: dialogs (noted, then dismissed so the page goes
 * on), requests to other hosts and console lines while an answer is awaited (`watching`).
 */
export class PageEffects {
  private effects: Effect[] = [];
  watching = false;

  constructor(page: Page) {
    // a dialog is script running in the page; it is noted and closed so the page goes on
    page.on('dialog', (dialog) => {
      this.note('dialog', `${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss().catch(() => undefined);
    });
    // requests to other hosts while an answer shows: an image or link beaconing out
    page.on('request', (request) => {
      if (!this.watching) return;
      try {
        if (new URL(request.url()).origin !== new URL(page.url()).origin) this.note('request', request.url());
      } catch {
        /* data: and other URLs without an origin load nothing from anywhere */
      }
    });
    page.on('console', (message) => this.watching && this.note('console', message.text()));
  }

  /** forgets what was noted: a new message is about to go */
  reset(): void {
    this.effects = [];
  }

  note(kind: Effect['kind'], detail: string): void {
    if (this.effects.length < MAX_EFFECTS) this.effects.push({ kind, detail: detail.slice(0, 500) });
  }

  /** what was noted since the reset */
  get noted(): readonly Effect[] {
    return this.effects;
  }
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
};

/**
 * The effects the bot's own message caused: a request to a URL its markup loads (and ours does
 * not), a dialog or console line whose origin lies in it, and, when the origin is unknown (a
 * title rewritten, a script in a frame), an effect only the bot's message could have run (it can
 * run script, ours cannot). An uncertain reading proves no effect.
 */
export function effectsOfAnswer(effects: readonly Effect[], seen: AnswerReading): Effect[] {
  if (seen.attribution !== 'bot_message') return [];
  const onlyTheAnswerRuns = seen.scripts && !seen.oursScripts;
  const answerHosts = new Set(seen.urls.map(hostOf));
  const oursHosts = new Set(seen.oursUrls.map(hostOf));
  return effects.filter((e) => {
    if (e.kind === 'request') {
      if (seen.oursUrls.includes(e.detail)) return false;
      if (seen.urls.includes(e.detail)) return true;
      const host = hostOf(e.detail);
      if (answerHosts.has(host)) return !oursHosts.has(host);
      return onlyTheAnswerRuns && !oursHosts.has(host);
    }
    if (e.kind === 'dialog' || e.kind === 'console') {
      const origin = seen.origins.find((o) => o.kind === e.kind && (e.detail === o.detail || e.detail.endsWith(`: ${o.detail}`) || (o.detail.length > 0 && e.detail.includes(o.detail.slice(0, 200)))));
      if (origin && origin.where !== 'unknown') return origin.where === 'answer';
    }
    return onlyTheAnswerRuns;
  });
}

/** addresses of our own message noted per answer, at most, each cut to 500 characters */
const MAX_OWN_URLS = 10;

/**
 * Of the web addresses our own message loads or links as the page showed it, those the message
 * itself carried (whole, or the last part of its path: an unguessable token): the page's own images
 * in our bubble (an avatar) are not ours to note.
 */
export function ownMessageUrls(message: string, urls: readonly string[]): string[] {
  const out = new Set<string>();
  for (const url of urls) {
    if (out.size >= MAX_OWN_URLS) break;
    let tail = '';
    try {
      const parsed = new URL(url);
      // only what a page requests: a javascript: or data: link loads nothing from anywhere
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') continue;
      tail = parsed.pathname.split('/').pop() ?? '';
    } catch {
      continue;
    }
    if (message.includes(url) || (tail.length >= 16 && message.includes(tail))) out.add(url.slice(0, 500));
  }
  return [...out];
}
