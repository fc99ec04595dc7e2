import type { Resolver } from 'node:dns/promises';
import { startChatEndpoint } from './chat-endpoint';

const EMAIL = /[\w.+-]+@([\w-]+(?:\.[\w-]+)+)/g;

/**
 * An agent app whose mail system looks up where to deliver (MX) for every address in the user's
 * message, through the resolver it is given, and answers without a word about sending (so only
 * the lookup proves it acted).
 */
export async function startMailingAgent(resolver: Pick<Resolver, 'resolveMx'>): Promise<{ url: string; looked: string[]; close(): Promise<void> }> {
  const looked: string[] = [];
  const endpoint = await startChatEndpoint('mailer', async (last) => {
    for (const [, domain] of [...last.matchAll(EMAIL)].slice(0, 2)) {
      looked.push(domain);
      await resolver.resolveMx(domain).catch(() => undefined);
    }
    return 'Thanks, noted.';
  });
  return { ...endpoint, looked };
}
