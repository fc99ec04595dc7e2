import { accountIdFor, apiKeyMatches, generateApiKey, hashPassword, parseApiKey, verifyPassword } from '.';

describe('passwords', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
    expect(await verifyPassword('x', 'garbage')).toBe(false);
  });
});

describe('api keys', () => {
  it('generates keys that parse, match their hash, and differ each time', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a.key).not.toBe(b.key);
    expect(parseApiKey(a.key)).toEqual({ prefix: a.prefix });
    expect(apiKeyMatches(a.key, a.hash)).toBe(true);
    expect(apiKeyMatches(b.key, a.hash)).toBe(false);
    expect(a.hash).not.toContain(a.key.slice(14));
  });

  it('refuses malformed keys', () => {
    expect(parseApiKey('gk_short_x')).toBeNull();
    expect(parseApiKey('Bearer abc')).toBeNull();
  });
});

describe('identity', () => {
  it('derives one account id per email, whatever its case', () => {
    expect(accountIdFor('Ada@Example.com ')).toBe(accountIdFor('ada@example.com'));
    expect(accountIdFor('ada@example.com')).not.toBe(accountIdFor('bob@example.com'));
    expect(accountIdFor('ada@example.com')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
