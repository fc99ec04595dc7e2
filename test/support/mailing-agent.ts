import type { Resolver } from 'node:dns/promises';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

const EMAIL = /[\w.+-]+@([\w-]+(?:\.[\w-]+)+)/g;

/**
 * An agent app whose mail system looks up where to deliver (MX) for every address in the user's
 * message, through the resolver it is given, and answers without a word about sending (so only
 * the lookup proves it acted).
 */
export async function startMailingAgent(resolver: Pick<Resolver, 'resolveMx'>): Promise<{ url: string; looked: string[]; close(): Promise<void> }> {
  const looked: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { messages?: { role: string; content: string }[] };
        const last = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? '';
        for (const [, domain] of [...last.matchAll(EMAIL)].slice(0, 2)) {
          looked.push(domain);
          await resolver.resolveMx(domain).catch(() => undefined);
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'x', object: 'chat.completion', model: 'mailer', choices: [{ index: 0, message: { role: 'assistant', content: 'Thanks, noted.' }, finish_reason: 'stop' }] }));
      })().catch(() => res.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    looked,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
