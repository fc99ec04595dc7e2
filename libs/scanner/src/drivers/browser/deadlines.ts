import type { BrowserContext } from 'playwright';
import { TargetUnavailableError } from '../../chat-driver';

/** Every browser operation has a deadline: a page that never settles must not hold a scan or a check. */

/** a browser operation that ran past its deadline: the page keeps the browser busy */
export class PageDidNotSettleError extends TargetUnavailableError {
  constructor(what: string, ms: number) {
    super(`the page did not settle: ${what} took longer than ${ms} ms`, undefined, { kind: 'page', step: 'settle' });
    this.name = 'PageDidNotSettleError';
  }
}

/**
 * `op`, or a PageDidNotSettleError once `ms` pass. Playwright bounds clicks and navigations
 * itself but not scripts evaluated in a page: a frame that never gets an execution context (a
 * file: or chrome: frame), a busy loop or a dialog storm would leave them pending forever.
 */
export function within<T>(op: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PageDidNotSettleError(what, ms)), ms);
  });
  // the losing operation settles later (or when its context closes): nobody awaits it then
  op.catch(() => undefined);
  return Promise.race([op, expired]).finally(() => clearTimeout(timer));
}

/** how long closing a browser, context or proxy may take before it is given up on */
export const CLOSE_MS = 10_000;

export async function closeContext(context: BrowserContext): Promise<void> {
  await within(context.close(), CLOSE_MS, 'closing a browser context').catch(() => undefined);
}
