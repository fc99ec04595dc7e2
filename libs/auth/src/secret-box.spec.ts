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

  it('rejects keys of the wrong size', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32-byte/);
  });
});
