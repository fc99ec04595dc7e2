import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { TargetProtocolError } from '@gauntlet/scanner';
import { labChatDriver } from './lab-client';

/** a model API that is busy `busy` times (429, as the lab's real model with a full queue), then answers */
function busyModel(busy: number, headers: Record<string, string>): Promise<{ url: string; asked: () => number; server: Server }> {
  let asked = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      asked++;
      if (asked <= busy) {
        res.writeHead(429, { 'content-type': 'application/json', ...headers });
        return res.end('{"error":{"message":"the model is busy"}}');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Hello from the model.' } }] }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked: () => asked, server })));
}

describe('the lab client, in front of a busy model', () => {
  const servers: Server[] = [];
  afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

  it('given a model that answers 429 with retry-after-ms twice, when a message is sent, then it waits as told and gets the answer', async () => {
    const model = await busyModel(2, { 'retry-after-ms': '20', 'retry-after': '1' });
    servers.push(model.server);
    const conversation = await labChatDriver(model.url).openConversation();
    await expect(conversation.send('hi')).resolves.toBe('Hello from the model.');
    expect(model.asked()).toBe(3);
  });

  it('given a 429 without a wait named, when a message is sent, then it is the target refusing: no retry', async () => {
    const model = await busyModel(1, {});
    servers.push(model.server);
    const conversation = await labChatDriver(model.url).openConversation();
    await expect(conversation.send('hi')).rejects.toBeInstanceOf(TargetProtocolError);
    expect(model.asked()).toBe(1);
  });

  it('given a model busy for ever, when a message is sent, then it gives up after a bounded number of tries', async () => {
    const model = await busyModel(Number.MAX_SAFE_INTEGER, { 'retry-after-ms': '1' });
    servers.push(model.server);
    const conversation = await labChatDriver(model.url).openConversation();
    await expect(conversation.send('hi')).rejects.toBeInstanceOf(TargetProtocolError);
    expect(model.asked()).toBe(12);
  });
});
