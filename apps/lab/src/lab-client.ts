import { setTimeout as sleep } from 'node:timers/promises';
import { ChatDriver, retryAfterOf, TargetProtocolError, TargetUnavailableError } from '@gauntlet/scanner';

/**
 * a busy model (the lab's real model answers 429 with Retry-After when its queue is full, as a
 * rate-limited model API does) is waited for this many times at most, each wait bounded
 */
const THROTTLED_TRIES = 12;
const LONGEST_WAIT_MS = 30_000;

/**
 * The smallest ChatDriver that talks to the lab's OpenAI-compatible endpoint: plain fetch, no
 * retries but a busy model's, no guard (loopback only). For tests and benches of the engine; real
 * scans use the drivers in libs/scanner/src/drivers.
 */
export function labChatDriver(baseUrl: string): ChatDriver & { requests: () => number } {
  let requests = 0;
  return {
    requests: () => requests,
    async openConversation() {
      const history: { role: 'user' | 'assistant'; content: string }[] = [];
      return {
        async send(message, options) {
          requests++;
          let res: Response;
          for (let tries = 1; ; tries++) {
            try {
              res = await fetch(`${baseUrl}/v1/chat/completions`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ model: 'penny-lab', messages: [...history, { role: 'user', content: message }] }),
                signal: options?.signal,
              });
            } catch (e) {
              if (options?.signal?.aborted) throw e;
              throw new TargetUnavailableError(`cannot reach ${baseUrl}`, e);
            }
            const wait = res.status === 429 ? retryAfterOf({ 'retry-after-ms': res.headers.get('retry-after-ms') ?? undefined, 'retry-after': res.headers.get('retry-after') ?? undefined }, Date.now()) : null;
            if (wait === null || tries === THROTTLED_TRIES) break;
            await res.body?.cancel();
            await sleep(Math.min(wait, LONGEST_WAIT_MS), undefined, { signal: options?.signal });
          }
          if (res.status >= 500) {
            await res.body?.cancel();
            throw new TargetUnavailableError(`the target answered HTTP ${res.status}`);
          }
          if (!res.ok) throw new TargetProtocolError(`the target answered HTTP ${res.status}`);
          const body = (await res.json()) as { choices?: { message?: { content?: string } }[] };
          const content = body.choices?.[0]?.message?.content;
          if (typeof content !== 'string') throw new TargetProtocolError('no choices[0].message.content');
          history.push({ role: 'user', content: message }, { role: 'assistant', content });
          return content;
        },
        async close() {},
      };
    },
    async close() {},
  };
}
