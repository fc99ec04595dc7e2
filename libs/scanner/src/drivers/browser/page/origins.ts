import { isElement } from './dom';
import type { Origin } from './api';

/**
 * What ran in the page, and from where: a dialog or a console line notes the element that caused
 * it (the element whose handler runs, the script running, or the frame it runs in), so an effect
 * of our own bubble is told from one of the answer's.
 */
export interface Noted {
  kind: Origin['kind'];
  detail: string;
  el: Element | null;
}

const noted: Noted[] = [];

export const origins = (): readonly Noted[] => noted;
export const forgetOrigins = (): void => { noted.length = 0; };

export const noteOrigin = (kind: Origin['kind'], detail: string, el: Element | null): void => {
  if (noted.length < 50) noted.push({ kind, detail: String(detail).slice(0, 500), el });
};

const originOf = (): Element | null => {
  const e = window.event;
  if (e && isElement(e.target as Node | null)) return e.target as Element;
  return document.currentScript || null;
};

const tell = (kind: Origin['kind'], detail: string) => {
  noteOrigin(kind, detail, originOf());
  try {
    const parent = window.parent as Window;
    if (window.frameElement && parent.__gauntlet) parent.__gauntlet.noteOrigin(kind, detail, window.frameElement);
  } catch {
    /* a parent of another origin: it cannot be told */
  }
};

/** wraps the page's dialogs and console so each tells where it came from, then does what it did */
export function watchOrigins(): void {
  for (const name of ['alert', 'confirm', 'prompt'] as const) {
    const original = window[name] as (...args: unknown[]) => unknown;
    if (typeof original !== 'function') continue;
    try {
      (window as unknown as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
        try { tell('dialog', args[0] === undefined ? '' : String(args[0])); } catch { /* never in the page's way */ }
        return original.apply(this, args);
      };
    } catch { /* a page that froze them */ }
  }
  for (const name of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const original = console[name] as (...args: unknown[]) => unknown;
    if (typeof original !== 'function') continue;
    try {
      (console as unknown as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
        try { tell('console', args.map((a) => String(a)).join(' ')); } catch { /* never in the page's way */ }
        return original.apply(this, args);
      };
    } catch { /* a page that froze them */ }
  }
}
