import { createCipheriv, createHmac, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Seals secrets (target API keys, webhook secrets) before they enter the log or a read model:
 * AES-256-GCM with a random 96-bit nonce. Token format: `v1.<nonce b64url>.<tag b64url>.<ciphertext b64url>`.
 * The version prefix leaves room for key rotation.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
    this.key = key;
  }

  static fromBase64(key: string): SecretBox {
    return new SecretBox(Buffer.from(key, 'base64'));
  }

  seal(plain: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', nonce.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  /**
   * A keyed fingerprint of a value, keyed per account: HMAC-SHA256 under a key derived from this
   * box's key and the account's id (HMAC(box key, "gauntlet fingerprint v2" + account)). Equal
   * values give equal fingerprints within one account and unrelated ones across accounts, so a
   * fingerprint says nothing about another tenant's values; a short value (a name, a code) cannot
   * be recovered by hashing guesses without the key. `fp2_` tells them from the service-wide `fp_`
   * fingerprints recorded before, which stay as they were recorded.
   */
  fingerprint(plain: string, accountId: string): string {
    const key = createHmac('sha256', this.key).update(`gauntlet fingerprint v2\0${accountId}`).digest();
    return `fp2_${createHmac('sha256', key).update(plain, 'utf8').digest('hex').slice(0, 20)}`;
  }

  open(token: string): string {
    const [version, nonce, tag, body] = token.split('.');
    if (version !== 'v1' || !nonce || !tag || body === undefined) throw new Error('Not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
