import { spec } from '@gauntlet/testing';
import { accountDecider, AccountEvent, MAX_ACTIVE_API_KEYS } from './account';

const now = '2026-11-21T10:00:00.000Z';
const registered: AccountEvent = {
  type: 'AccountRegistered',
  schemaVersion: 1,
  data: { account_id: 'a1', email: 'ada@example.com', password_hash: 'h', plan: 'free', role: 'member', registered_at: now },
};
const issued = (id: string): AccountEvent => ({
  type: 'ApiKeyIssued',
  schemaVersion: 1,
  data: { account_id: 'a1', api_key_id: id, name: id, prefix: `p${id}`, key_hash: 'kh', issued_at: now },
});

describe('account decider', () => {
  it('registers a new account', () => {
    spec(accountDecider)
      .given([])
      .when({ type: 'RegisterAccount', account_id: 'a1', email: 'ada@example.com', password_hash: 'h', plan: 'free', role: 'member', now })
      .then([registered]);
  });

  it('refuses a second registration of the same email (same account id)', () => {
    spec(accountDecider)
      .given([registered])
      .when({ type: 'RegisterAccount', account_id: 'a1', email: 'ada@example.com', password_hash: 'h2', plan: 'free', role: 'member', now })
      .thenFails('conflict');
  });

  it('changes plan, and changing to the same plan is a no-op', () => {
    spec(accountDecider)
      .given([registered])
      .when({ type: 'ChangePlan', plan: 'pro' })
      .then([{ type: 'AccountPlanChanged', schemaVersion: 1, data: { account_id: 'a1', plan: 'pro', previous_plan: 'free' } }]);
    spec(accountDecider).given([registered]).when({ type: 'ChangePlan', plan: 'free' }).then([]);
  });

  it('cannot change the plan of an absent account', () => {
    spec(accountDecider).given([]).when({ type: 'ChangePlan', plan: 'pro' }).thenFails('not_found');
  });

  it('issues an API key once, even when the command is retried', () => {
    const cmd = { type: 'IssueApiKey' as const, api_key_id: 'k1', name: 'k1', prefix: 'pk1', key_hash: 'kh', now };
    spec(accountDecider).given([registered]).when(cmd).then([issued('k1')]);
    spec(accountDecider).given([registered, issued('k1')]).when(cmd).then([]);
  });

  it('caps the number of active API keys', () => {
    const keys = Array.from({ length: MAX_ACTIVE_API_KEYS }, (_, i) => issued(`k${i}`));
    spec(accountDecider)
      .given([registered, ...keys])
      .when({ type: 'IssueApiKey', api_key_id: 'new', name: 'n', prefix: 'p', key_hash: 'h', now })
      .thenFails('conflict', /at most/);
  });

  it('revokes a key; revoking twice is a no-op; an unknown key is not found', () => {
    spec(accountDecider)
      .given([registered, issued('k1')])
      .when({ type: 'RevokeApiKey', api_key_id: 'k1', now })
      .then([{ type: 'ApiKeyRevoked', schemaVersion: 1, data: { account_id: 'a1', api_key_id: 'k1', revoked_at: now } }]);
    spec(accountDecider)
      .given([registered, issued('k1'), { type: 'ApiKeyRevoked', schemaVersion: 1, data: { account_id: 'a1', api_key_id: 'k1', revoked_at: now } }])
      .when({ type: 'RevokeApiKey', api_key_id: 'k1', now })
      .then([]);
    spec(accountDecider).given([registered]).when({ type: 'RevokeApiKey', api_key_id: 'nope', now }).thenFails('not_found');
  });
});
