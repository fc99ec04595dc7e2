import { generateApiKey } from '@gauntlet/auth';
import type { AccountDoc, ApiKeyDoc } from '@gauntlet/read-models';
import { ProblemException } from '../http/problem';
import { Authenticator, RouteMarkers } from './authenticator';
import type { Principal } from '../http/principal';

/** Given the accounts, keys and tokens the process knows, when a request names its caller, then who is admitted, or the problem. */
const ada: AccountDoc = { _id: 'a-1', email: 'ada@example.com', password_hash: 'x', plan: 'pro', role: 'member', registered_at: '2026-11-01T00:00:00.000Z' };
const root: AccountDoc = { ...ada, _id: 'a-2', email: 'root@example.com', role: 'admin' };
const key = generateApiKey();
const keyDoc: ApiKeyDoc = { _id: 'k-1', account_id: ada._id, name: 'ci', prefix: key.prefix, key_hash: key.hash, created_at: ada.registered_at, revoked: false, revoked_at: null };
const plain: RouteMarkers = { public: false, bearerOnly: false, adminOnly: false };

function world() {
  const accounts = new Map([ada, root].map((a) => [a._id, a]));
  const remembered = new Map<string, string>([['known-token', ada._id], ['root-token', root._id], ['orphan-token', 'gone']]);
  const sessions = {
    account: async (token: string | undefined) => (token === undefined || !remembered.has(token) ? undefined : accounts.get(remembered.get(token)!) ?? null),
    remember: (token: string, account_id: string) => void remembered.set(token, account_id),
  };
  const reader = { get: async (id: string) => accounts.get(id) ?? null, apiKeyByPrefix: async (prefix: string) => (prefix === keyDoc.prefix ? keyDoc : null) };
  return { authenticator: new Authenticator(sessions, reader), remembered };
}

const unverifiable = async () => null;

async function refusal(p: Promise<unknown>): Promise<{ status: number; detail: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ProblemException) return { status: e.getStatus(), detail: e.message };
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('Authenticator', () => {
  it('given a token verified before, when it comes back, then its account is the caller and nothing verifies it again', async () => {
    const { authenticator } = world();
    const verify = jest.fn(unverifiable);
    expect(await authenticator.identify({ authorization: 'Bearer known-token' }, plain, verify)).toEqual({ account_id: 'a-1', email: 'ada@example.com', role: 'member', plan: 'pro', via: 'bearer' });
    expect(verify).not.toHaveBeenCalled();
  });

  it('given a token never seen, when passport verifies it, then it is remembered; when nothing can verify it, then 401', async () => {
    const { authenticator, remembered } = world();
    const principal: Principal = { account_id: ada._id, email: ada.email, role: 'member', plan: 'pro', via: 'bearer' };
    expect(await authenticator.identify({ authorization: 'Bearer fresh' }, plain, async () => principal)).toBe(principal);
    expect(remembered.get('fresh')).toBe(ada._id);
    expect(await refusal(authenticator.identify({ authorization: 'Bearer other' }, plain, unverifiable))).toMatchObject({ status: 401 });
    expect(remembered.has('other')).toBe(false);
  });

  it('given a remembered token whose account is gone, then 401 like any bad credential', async () => {
    expect(await refusal(world().authenticator.identify({ authorization: 'Bearer orphan-token' }, plain, unverifiable))).toEqual({
      status: 401, detail: 'Send a valid bearer token (Authorization: Bearer <token>) or API key (X-API-Key).',
    });
  });

  it('given an API key, then its account is the caller, named by the key; a wrong secret or an unknown key is 401', async () => {
    const { authenticator } = world();
    expect(await authenticator.identify({ 'x-api-key': key.key }, plain, unverifiable)).toMatchObject({ account_id: 'a-1', via: 'api_key', api_key_id: 'k-1' });
    const wrong = `${key.key.slice(0, -1)}${key.key.endsWith('A') ? 'B' : 'A'}`;
    expect(await refusal(authenticator.identify({ 'x-api-key': wrong }, plain, unverifiable))).toMatchObject({ status: 401 });
    expect(await refusal(authenticator.identify({ 'x-api-key': 'gk_nope' }, plain, unverifiable))).toMatchObject({ status: 401 });
  });

  it('given both credentials at once, then 401 whatever each is worth', async () => {
    expect(await refusal(world().authenticator.identify({ authorization: 'Bearer known-token', 'x-api-key': key.key }, plain, unverifiable))).toEqual({
      status: 401, detail: 'Send one credential: a bearer token or an API key, not both.',
    });
  });

  it('given the route\'s markers, then an API key on a bearer-only route and a user on an admin route are 403', async () => {
    const { authenticator } = world();
    expect(await refusal(authenticator.identify({ 'x-api-key': key.key }, { ...plain, bearerOnly: true }, unverifiable))).toMatchObject({ status: 403 });
    expect(await refusal(authenticator.identify({ authorization: 'Bearer known-token' }, { ...plain, adminOnly: true }, unverifiable))).toEqual({
      status: 403, detail: 'This operation is for administrators.',
    });
    expect(await authenticator.identify({ authorization: 'Bearer root-token' }, { ...plain, adminOnly: true }, unverifiable)).toMatchObject({ role: 'admin' });
  });

  it('given no credential, then 401', async () => {
    expect(await refusal(world().authenticator.identify({}, plain, unverifiable))).toMatchObject({ status: 401 });
  });
});
