import { Decider, DomainError } from '../decider';
import { DomainEvent, event } from '../events';

export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
export type Role = 'admin' | 'member';

/** An account may hold this many live API keys; more is a sign of leaked automation. */
export const MAX_ACTIVE_API_KEYS = 25;

export type AccountEvent =
  | DomainEvent<'AccountRegistered', { account_id: string; email: string; password_hash: string; plan: Plan; role: Role; registered_at: string }>
  | DomainEvent<'AccountPlanChanged', { account_id: string; plan: Plan; previous_plan: Plan }>
  | DomainEvent<'ApiKeyIssued', { account_id: string; api_key_id: string; name: string; prefix: string; key_hash: string; issued_at: string }>
  | DomainEvent<'ApiKeyRevoked', { account_id: string; api_key_id: string; revoked_at: string }>;

export type AccountCommand =
  | { type: 'RegisterAccount'; account_id: string; email: string; password_hash: string; plan: Plan; role: Role; now: string }
  | { type: 'ChangePlan'; plan: Plan }
  | { type: 'IssueApiKey'; api_key_id: string; name: string; prefix: string; key_hash: string; now: string }
  | { type: 'RevokeApiKey'; api_key_id: string; now: string };

export interface AccountState {
  id: string | null;
  plan: Plan;
  apiKeys: Record<string, { revoked: boolean }>;
}

export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = {
  initialState: () => ({ id: null, plan: 'free', apiKeys: {} }),

  decide(command, state) {
    if (command.type === 'RegisterAccount') {
      if (state.id) throw new DomainError('conflict', 'An account with this email already exists.');
      return [
        event('AccountRegistered', {
          account_id: command.account_id,
          email: command.email,
          password_hash: command.password_hash,
          plan: command.plan,
          role: command.role,
          registered_at: command.now,
        }),
      ];
    }
    if (!state.id) throw new DomainError('not_found', 'Account not found.');
    const account_id = state.id;
    switch (command.type) {
      case 'ChangePlan':
        if (command.plan === state.plan) return [];
        return [event('AccountPlanChanged', { account_id, plan: command.plan, previous_plan: state.plan })];
      case 'IssueApiKey': {
        const active = Object.values(state.apiKeys).filter((k) => !k.revoked).length;
        if (active >= MAX_ACTIVE_API_KEYS) {
          throw new DomainError('conflict', `An account may hold at most ${MAX_ACTIVE_API_KEYS} active API keys; revoke one first.`);
        }
        if (state.apiKeys[command.api_key_id]) return []; // a retried command: already issued
        return [
          event('ApiKeyIssued', {
            account_id,
            api_key_id: command.api_key_id,
            name: command.name,
            prefix: command.prefix,
            key_hash: command.key_hash,
            issued_at: command.now,
          }),
        ];
      }
      case 'RevokeApiKey': {
        const key = state.apiKeys[command.api_key_id];
        if (!key) throw new DomainError('not_found', 'API key not found.');
        if (key.revoked) return [];
        return [event('ApiKeyRevoked', { account_id, api_key_id: command.api_key_id, revoked_at: command.now })];
      }
    }
  },

  evolve(state, e) {
    switch (e.type) {
      case 'AccountRegistered':
        return { ...state, id: e.data.account_id, plan: e.data.plan };
      case 'AccountPlanChanged':
        return { ...state, plan: e.data.plan };
      case 'ApiKeyIssued':
        return { ...state, apiKeys: { ...state.apiKeys, [e.data.api_key_id]: { revoked: false } } };
      case 'ApiKeyRevoked':
        return { ...state, apiKeys: { ...state.apiKeys, [e.data.api_key_id]: { revoked: true } } };
      default:
        return state;
    }
  },
};
