import type { Vulnerability } from '@gauntlet/domain';
import { callbackFindings, HeldByTarget } from './callback-findings';
import { CallbackPlanting, DEFAULT_CALLBACK_GRACE_MS } from './planting';

/** resolves after `ms`, or at once when `signal` aborts */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * The findings requests to the scan's planted addresses prove, heard before analysis: when the
 * scan planted any, it first waits a short bounded time (graceMs) for requests still on their way
 * (an agent's second fetch, a page's image), then reads the hits recorded for the scan. Nothing
 * planted: nothing waited for. A failed read is no finding, never a failed scan.
 */
export async function hearCallbacks(planting: CallbackPlanting | null, scanId: string, held: HeldByTarget, stop: AbortSignal): Promise<Vulnerability[]> {
  if (!planting || planting.attempts.length === 0) return [];
  const { setup } = planting;
  await pause(setup.graceMs ?? DEFAULT_CALLBACK_GRACE_MS, stop);
  try {
    return callbackFindings(scanId, planting.attempts, await setup.inbox.hits(scanId), setup.key, held);
  } catch {
    return [];
  }
}
