import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** A loopback OpenAI-compatible chat endpoint, as test agents are served. */
export interface ChatEndpoint {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `reply` as an OpenAI-compatible chat completion on loopback: it is handed the last
 * user message of each request and answers with the assistant's text (a throw answers 500).
 */
export async function startChatEndpoint(model: string, reply: (lastUserMessage: string) => Promise<string>): Promise<ChatEndpoint> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { messages?: { role: string; content: string }[] };
        const last = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? '';
        const content = await reply(last);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'x', object: 'chat.completion', model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
      })().catch(() => res.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
