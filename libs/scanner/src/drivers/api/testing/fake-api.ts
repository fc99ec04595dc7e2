import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import type { ChatDriver } from '../../../chat-driver';
import type { ApiDriverOptions } from '../api-transport';

/** A request as the fake API received it. */
export interface Received {
  at: number;
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}
export type Handler = (req: Received, res: ServerResponse, n: number) => void;

export const KEY = 'sk-test-0123456789abcdef';
/** short waits so a spec of retries stays quick, bounded so nothing loops for long */
export const FAST: ApiDriverOptions = { allowPrivate: true, timeoutMs: 2_000, retry: { attempts: 3, baseDelayMs: 20, maxDelayMs: 50, maxRetryAfterMs: 1_500, maxThrottledAttempts: 3 } };

/**
 * A fake model API on loopback for a driver spec: each test sets `handler`, then reads
 * `received`. Drivers made with `track` are closed after each test.
 */
export function fakeApi() {
  const state = {
    base: '',
    handler: ((_r, res) => res.end()) as Handler,
    received: [] as Received[],
  };
  let server: Server;
  const drivers: ChatDriver[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const r: Received = { at: Date.now(), method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: raw ? JSON.parse(raw) : null };
        state.received.push(r);
        state.handler(r, res, state.received.length);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    state.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    state.received = [];
  });
  afterEach(async () => {
    await Promise.all(drivers.splice(0).map((d) => d.close()));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  return {
    state,
    track: <D extends ChatDriver>(d: D) => (drivers.push(d), d),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** server-sent events, written in two halves each so the reader has to buffer */
export function sse(res: ServerResponse, events: Array<{ event?: string; data: unknown }>, tail = '') {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const e of events) {
    const text = `${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`;
    res.write(text.slice(0, 7));
    res.write(text.slice(7));
  }
  res.end(tail);
}

/** the promise's error, or a failure when it resolves */
export const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => err as Error & { failure?: unknown },
  );

/** one message on a fresh conversation */
export const ask = async (driver: ChatDriver, message = 'hi') => (await driver.openConversation()).send(message);
