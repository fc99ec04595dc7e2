import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, serviceSignature, signatureHeaders, verifyServiceSignature } from './signing';

describe('signing', () => {
  const secret = newWebhookSecret();
  const body = Buffer.from(JSON.stringify({ event: 'scan.completed', data: { target_name: 'é中 bot' } }), 'utf8');

  it('generates whsec_ secrets of 32 random bytes', () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('signs X-Service-Signature with the UTF-8 bytes of the whole secret string', () => {
    const headers = signatureHeaders({ deliveryId: 'dlv_1', event: 'scan.completed', body, secret, timestampSeconds: 1_700_000_000 });
    const independent = 'sha256=' + createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
    expect(headers['x-service-signature']).toBe(independent);
    expect(headers['x-service-event']).toBe('scan.completed');
    expect(headers['x-service-delivery']).toBe('dlv_1');
    expect(headers['webhook-id']).toBe('dlv_1');
    expect(headers['webhook-timestamp']).toBe('1700000000');
  });

  it('produces Standard Webhooks headers the standardwebhooks library verifies', () => {
    const ts = Math.floor(Date.now() / 1000);
    const headers = signatureHeaders({ deliveryId: 'dlv_2', event: 'scan.started', body, secret, timestampSeconds: ts });
    const wh = new Webhook(secret);
    expect(wh.verify(body.toString('utf8'), headers)).toEqual(JSON.parse(body.toString('utf8')));
    expect(() => wh.verify(body.toString('utf8') + ' ', headers)).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body.toString('utf8'), headers)).toThrow();
    // a stale timestamp is a replay: refused
    const old = signatureHeaders({ deliveryId: 'dlv_2', event: 'scan.started', body, secret, timestampSeconds: ts - 3600 });
    expect(() => wh.verify(body.toString('utf8'), old)).toThrow(/timestamp/i);
  });

  it('verifies X-Service-Signature for receivers, rejecting tampering and malformed headers', () => {
    const header = serviceSignature(body, secret);
    expect(verifyServiceSignature(body, header, secret)).toBe(true);
    expect(verifyServiceSignature(body.toString('utf8'), header, secret)).toBe(true);
    expect(verifyServiceSignature(Buffer.concat([body, Buffer.from(' ')]), header, secret)).toBe(false);
    expect(verifyServiceSignature(body, header, secret + 'x')).toBe(false);
    expect(verifyServiceSignature(body, header.toUpperCase(), secret)).toBe(false);
    expect(verifyServiceSignature(body, header.slice(0, -1), secret)).toBe(false);
    expect(verifyServiceSignature(body, undefined, secret)).toBe(false);
    expect(verifyServiceSignature(body, 'sha1=' + header.slice(7), secret)).toBe(false);
  });
});
