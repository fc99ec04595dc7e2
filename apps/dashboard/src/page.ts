// What the shell (main.ts) hands every page: pages get everything through it and never import each other.
import type { Schemas } from './api/client';
import type { Toast } from './widgets/feedback';

export interface PageContext {
  main: HTMLElement;
  params: Record<string, string>;
  query: URLSearchParams;
  account: Schemas['MeView'] | null;
  navigate(path: string, options?: { replace?: boolean }): void;
  toast: Toast;
  onLeave(fn: () => void): void;
  /** true while this page is still the one on screen (async work checks it before touching the DOM) */
  alive(): boolean;
  signedIn(token: string): Promise<void>;
}

export type Page = (ctx: PageContext) => void | Promise<void>;
