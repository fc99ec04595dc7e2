import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks' secret format). */
export function newWebhookSecret(): string {
  return 'whsec_' + randomBytes(32).toString('base64');
}

/** The contract's signature: `sha256=` + hex HMAC-SHA256 of the raw body, keyed with the UTF-8 bytes of the whole secret. */
export function serviceSignature(body: Buffer | string, secret: string): string {
  return 'sha256=' + createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}

/** Standard Webhooks keys with the decoded bytes after `whsec_`, not with the secret's text. */
function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
}

/** Standard Webhooks 1.0: `v1,` + base64 HMAC-SHA256 over `${id}.${timestamp}.${body}`. */
export function standardSignature(id: string, timestampSeconds: number, body: Buffer | string, secret: string): string {
  const mac = createHmac('sha256', standardKey(secret));
  mac.update(`${id}.${timestampSeconds}.`);
  mac.update(body);
  return 'v1,' + mac.digest('base64');
}

export interface SignatureInput {
  /** the delivery id: the same on every retry, the receiver's idempotency key */
  deliveryId: string;
  event: string;
  body: Buffer | string;
  secret: string;
  /** unix seconds of this attempt (Standard Webhooks receivers reject stale ones) */
  timestampSeconds?: number;
}

/** Every header that authenticates a delivery. */
export function signatureHeaders(input: SignatureInput): Record<string, string> {
  const ts = input.timestampSeconds ?? Math.floor(Date.now() / 1000);
  return {
    'x-service-signature': serviceSignature(input.body, input.secret),
    'x-service-event': input.event,
    'x-service-delivery': input.deliveryId,
    'webhook-id': input.deliveryId,
    'webhook-timestamp': String(ts),
    'webhook-signature': standardSignature(input.deliveryId, ts, input.body, input.secret),
  };
}

/**
 * For receivers: true when `header` is the X-Service-Signature of `body` under `secret`.
 * Compares in constant time; a malformed header is simply false.
 */
export function verifyServiceSignature(body: Buffer | string, header: string | undefined | null, secret: string): boolean {
  if (typeof header !== 'string' || !/^sha256=[0-9a-f]{64}$/.test(header)) return false;
  const expected = Buffer.from(serviceSignature(body, secret), 'ascii');
  const given = Buffer.from(header, 'ascii');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
