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
  /**
   * Standard Webhooks signature: for JSON bodies verified with the npm standardwebhooks library
   * (which also parses the body as JSON), for text bodies (CEF, syslog) recomputed here per spec
   */
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
        const id = String(req.headers['webhook-id']);
        const ts = String(req.headers['webhook-timestamp']);
        const signature = String(req.headers['webhook-signature']);
        if (String(req.headers['content-type']).startsWith('application/json')) {
          try {
            new Webhook(s).verify(body, { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': signature });
            standardSignatureOk = true;
          } catch {
            standardSignatureOk = false;
          }
        } else {
          const key = Buffer.from(s.replace(/^whsec_/, ''), 'base64');
          const expected = 'v1,' + createHmac('sha256', key).update(`${id}.${ts}.`).update(raw).digest('base64');
          const fresh = Math.abs(Date.now() / 1000 - Number(ts)) < 300;
          standardSignatureOk = fresh && signature.split(' ').includes(expected);
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
