import { randomBytes } from 'node:crypto';
import { callbackKey, mintToken, verifyToken } from './token';

describe('callback tokens', () => {
  const key = callbackKey(randomBytes(32));
  const claim = { scanId: '0b7a3c1e-5d2f-4e8a-9c1b-2f3e4d5c6b7a', attemptId: '9f86d081-884c-5d63-b1e0-3b0d4a2f5c11', stage: 'fetch' as const };

  it('reads back the scan, the attempt and the stage it was minted for, in another process holding the same key', () => {
    const token = mintToken(key, claim);
    expect(verifyToken(Buffer.from(key), token)).toEqual(claim);
    expect(verifyToken(key, mintToken(key, { scanId: 'scan-1', attemptId: 'a-2', stage: 'steered' }))).toEqual({ scanId: 'scan-1', attemptId: 'a-2', stage: 'steered' });
  });

  it('is the same address for the same attempt (a retried write plants what the first one did), and another for another stage', () => {
    expect(mintToken(key, claim)).toBe(mintToken(key, claim));
    expect(mintToken(key, { ...claim, stage: 'render' })).not.toBe(mintToken(key, claim));
  });

  it('refuses a token signed with another key', () => {
    expect(verifyToken(callbackKey(randomBytes(32)), mintToken(key, claim))).toBeNull();
  });

  it('refuses a forged token: another scan or attempt with the MAC of this one', () => {
    const token = Buffer.from(mintToken(key, claim), 'base64url');
    for (const at of [3, 20, 2]) {
      const altered = Buffer.from(token);
      altered[at] ^= 1;
      expect(verifyToken(key, altered.toString('base64url'))).toBeNull();
    }
    // a token of this key naming another scan cannot be made by swapping the scan's bytes in
    const other = Buffer.from(mintToken(key, { ...claim, scanId: '1b7a3c1e-5d2f-4e8a-9c1b-2f3e4d5c6b7a' }), 'base64url');
    const spliced = Buffer.concat([other.subarray(0, 19), token.subarray(19)]);
    expect(verifyToken(key, spliced.toString('base64url'))).toBeNull();
  });

  it('refuses a truncated or extended token, and whatever is not one', () => {
    const token = mintToken(key, claim);
    expect(verifyToken(key, token.slice(0, -1))).toBeNull();
    expect(verifyToken(key, token.slice(0, -4))).toBeNull();
    expect(verifyToken(key, `${token}A`)).toBeNull();
    for (const junk of ['', 'favicon.ico', 'x'.repeat(500), '../../etc/passwd', `${token.slice(0, 10)}/${token.slice(10)}`]) expect(verifyToken(key, junk)).toBeNull();
  });

  it('carries at least 128 bits the holder cannot predict', () => {
    const bytes = Buffer.from(mintToken(key, claim), 'base64url');
    // version, stage, two packed uuids, then the MAC
    expect(bytes.length - (2 + 17 + 17)).toBeGreaterThanOrEqual(16);
  });
});
