import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  /** X-Service-Signature recomputed here, independently of the service's signing code */
  serviceSignatureOk: boolean;
  /** verified with the npm standardwebhooks library (timestamp tolerance included) */
  standardSignatureOk: boolean;
}

/**
 * A SIEM-like receiver on loopback: records every POST, verifies both signatures, and answers
 * with the status the test chooses (per call), so retries can be provoked.
 */
export async function startReceiver(secret: () => string | null, answer: (n: number) => number = () => 204) {
  const deliveries: Delivery[] = [];
  let calls = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = raw.toString('utf8');
      const s = secret();
      let serviceSignatureOk = false;
      let standardSignatureOk = false;
      if (s) {
        const expected = Buffer.from('sha256=' + createHmac('sha256', Buffer.from(s, 'utf8')).update(raw).digest('hex'));
        const given = Buffer.from(String(req.headers['x-service-signature'] ?? ''));
        serviceSignatureOk = given.length === expected.length && timingSafeEqual(given, expected);
        try {
          new Webhook(s).verify(body, { 'webhook-id': String(req.headers['webhook-id']), 'webhook-timestamp': String(req.headers['webhook-timestamp']), 'webhook-signature': String(req.headers['webhook-signature']) });
          standardSignatureOk = true;
        } catch {
          standardSignatureOk = false;
        }
      }
      let json: any = null;
      try {
        json = JSON.parse(body);
      } catch {
        json = null;
      }
      deliveries.push({ path: req.url ?? '/', headers: req.headers, body, json, serviceSignatureOk, standardSignatureOk });
      res.statusCode = answer(++calls);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    deliveries,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** polls until `check` returns a value (not undefined/false) or the time is up */
export async function eventually<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 30_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v as T;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
