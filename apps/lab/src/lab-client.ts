import { ChatDriver, TargetProtocolError, TargetUnavailableError } from '@gauntlet/scanner';

/**
 * The smallest ChatDriver that talks to the lab's OpenAI-compatible endpoint: plain fetch, no
 * retries, no guard (loopback only). For tests and benches of the engine; real scans use the
 * drivers in libs/scanner/src/drivers.
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
