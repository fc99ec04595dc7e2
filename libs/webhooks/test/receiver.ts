import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { verifyServiceSignature } from '../src/signing';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  /** both signatures checked with the path's secret */
  verified: boolean;
}

/**
 * A webhook receiver on 127.0.0.1 that verifies X-Service-Signature (our helper) and the
 * Standard Webhooks signature (the standardwebhooks library) with the secret registered for
 * each path, records what came, and answers what the test scripts per path.
 */
export class Receiver {
  readonly received: Received[] = [];
  private server: Server;
  private readonly secrets = new Map<string, string>();
  private readonly scripts = new Map<string, (n: number, res: ServerResponse) => void>();
  private listeners = new Set<() => void>();
  base = '';

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const path = req.url!;
        const body = Buffer.concat(chunks).toString('utf8');
        const secret = this.secrets.get(path) ?? '';
        let verified = verifyServiceSignature(body, req.headers['x-service-signature'] as string, secret);
        try {
          new Webhook(secret).verify(body, req.headers as Record<string, string>);
        } catch (err) {
          // verify() parses the body as JSON after checking it: CEF and syslog bodies fail only that step
          if (err instanceof WebhookVerificationError || !(err instanceof SyntaxError)) verified = false;
        }
        this.received.push({ path, headers: req.headers, body, at: Date.now(), verified });
        const n = this.received.filter((r) => r.path === path).length;
        const script = this.scripts.get(path);
        if (script) script(n, res);
        else res.writeHead(200).end('ok');
        for (const l of this.listeners) l();
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this;
  }

  endpoint(path: string, secret: string, script?: (n: number, res: ServerResponse) => void): string {
    this.secrets.set(path, secret);
    if (script) this.scripts.set(path, script);
    return this.base + path;
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** resolves when `done()` holds, checked on each request; rejects after `timeoutMs` */
  until(done: () => boolean, timeoutMs = 5000): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`receiver: condition not met within ${timeoutMs} ms (${this.received.length} requests)`));
      }, timeoutMs);
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.listeners.delete(check);
        resolve();
      };
      this.listeners.add(check);
    });
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

/** polls `fn` until it returns a truthy value (bounded) */
export async function eventually<T>(fn: () => Promise<T | null | undefined | false>, timeoutMs = 5000, stepMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`eventually: not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
