import { randomBytes } from 'node:crypto';
import { callbackKey, MAX_HOST_NAME, mintToken, tokenInHost, verifyToken } from './token';

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

  describe('spelled as a host name (an e-mail address\'s domain)', () => {
    const domain = 'oob.example.com';
    const mail = { ...claim, stage: 'domain' as const };

    it('is lowercase base32 in labels of at most 63 characters, and reads back to the same claim, in any case', () => {
      const labels = mintToken(key, mail, 'host');
      expect(labels).toMatch(/^[a-z2-7]{1,63}(\.[a-z2-7]{1,63})*$/);
      expect(labels.split('.').every((l) => l.length <= 63)).toBe(true);
      expect(`${labels}.${domain}`.length).toBeLessThanOrEqual(MAX_HOST_NAME);
      expect(verifyToken(key, labels, 'host')).toEqual(mail);
      // resolvers change a name's case (0x20 encoding): the same token
      const mixed = [...labels].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');
      expect(verifyToken(key, mixed, 'host')).toEqual(mail);
      // one token, two spellings of the same bytes: either is read when the spelling is not said
      expect(verifyToken(key, labels)).toEqual(mail);
      expect(verifyToken(key, mintToken(key, mail))).toEqual(mail);
      expect(verifyToken(key, mintToken(key, mail), 'host')).toBeNull();
      expect(verifyToken(key, labels, 'url')).toBeNull();
    });

    it('refuses labels cut, split elsewhere, altered or of another key', () => {
      const labels = mintToken(key, mail, 'host');
      const flat = labels.replace(/\./g, '');
      expect(verifyToken(key, labels.slice(0, -1), 'host')).toBeNull();
      expect(verifyToken(key, labels.slice(1), 'host')).toBeNull();
      expect(verifyToken(key, labels.split('.')[0], 'host')).toBeNull();
      // the same characters split otherwise are not the planted name
      expect(verifyToken(key, `${flat.slice(0, 40)}.${flat.slice(40)}`, 'host')).toBeNull();
      for (const at of [0, 10, 30, flat.length - 1]) {
        const altered = `${flat.slice(0, at)}${flat[at] === 'a' ? 'b' : 'a'}${flat.slice(at + 1)}`.match(/.{1,63}/g)!.join('.');
        expect(verifyToken(key, altered, 'host')).toBeNull();
      }
      expect(verifyToken(callbackKey(randomBytes(32)), labels, 'host')).toBeNull();
      for (const junk of ['', 'www', 'a'.repeat(300), `${labels}-x`, labels.replace(/a/g, '1'), `${labels}.`]) expect(verifyToken(key, junk, 'host')).toBeNull();
    });

    it('is found in a name under the domain, with the labels a sender put before it; nowhere else', () => {
      const labels = mintToken(key, mail, 'host');
      expect(tokenInHost(key, `${labels}.${domain}`, domain)).toEqual({ token: labels, claim: mail, before: '' });
      expect(tokenInHost(key, `Dana-Whitfield.acct-4417.${labels.toUpperCase()}.OOB.example.com.`, domain)).toEqual({ token: labels, claim: mail, before: 'dana-whitfield.acct-4417' });
      expect(tokenInHost(key, `${labels}.oob.example.org`, domain)).toBeNull();
      expect(tokenInHost(key, `${labels}.evil-oob.example.com`, domain)).toBeNull();
      expect(tokenInHost(key, `${labels}.x.${domain}`, domain)).toBeNull();
      expect(tokenInHost(key, domain, domain)).toBeNull();
      expect(tokenInHost(key, `www.${domain}`, domain)).toBeNull();
    });

    it('fits a scan id and an attempt id that are not UUIDs too', () => {
      const other = { scanId: 'scan-safe', attemptId: 'attempt-42', stage: 'domain' as const };
      expect(verifyToken(key, mintToken(key, other, 'host'), 'host')).toEqual(other);
    });
  });
});
