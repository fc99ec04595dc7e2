import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, and never shows the plain text in the token', () => {
    const token = box.seal('sk-live-very-secret');
    expect(token).not.toContain('sk-live');
    expect(box.open(token)).toBe('sk-live-very-secret');
  });

  it('seals the same secret differently each time (random nonce)', () => {
    expect(box.seal('x')).not.toBe(box.seal('x'));
  });

  it('refuses a tampered token and a token sealed with another key', () => {
    const token = box.seal('secret');
    const parts = token.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(token)).toThrow();
  });

  it('fingerprints a value per account: the same within one, unrelated across two, never the value', () => {
    const a = box.fingerprint('Dana Kowalski', 'account-a');
    expect(a).toMatch(/^fp2_[0-9a-f]{20}$/);
    expect(box.fingerprint('Dana Kowalski', 'account-a')).toBe(a);
    expect(box.fingerprint('Dana Kowalski', 'account-b')).not.toBe(a);
    expect(box.fingerprint('Dana Kowalsky', 'account-a')).not.toBe(a);
    // another deployment's key gives another fingerprint for the same account and value
    expect(new SecretBox(randomBytes(32)).fingerprint('Dana Kowalski', 'account-a')).not.toBe(a);
  });

  it('rejects keys of the wrong size', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32-byte/);
  });
});
