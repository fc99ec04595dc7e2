import { isStream, type AccountEvent, type Plan, type Role } from '@gauntlet/domain';
import type { RecordedEvent } from '@gauntlet/eventstore';
import { Projection } from './projection';

export interface AccountDoc {
  _id: string;
  _rev?: number;
  email: string;
  password_hash: string;
  plan: Plan;
  role: Role;
  registered_at: string;
  [k: string]: unknown;
}

export interface ApiKeyDoc {
  _id: string;
  _rev?: number;
  account_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  created_at: string;
  revoked: boolean;
  revoked_at: string | null;
  [k: string]: unknown;
}

type E = RecordedEvent & AccountEvent;

export const accountsProjection: Projection<AccountDoc> = {
  collection: 'accounts',
  indexes: [['email']],
  documentId: (e) => (isStream('account', e.streamId) ? e.data.account_id : null),
  apply(doc, event) {
    const e = event as E;
    switch (e.type) {
      case 'AccountRegistered':
        return { _id: e.data.account_id, _rev: e.revision, email: e.data.email, password_hash: e.data.password_hash, plan: e.data.plan, role: e.data.role, registered_at: e.data.registered_at };
      case 'AccountPlanChanged':
        return doc && { ...doc, _rev: e.revision, plan: e.data.plan };
      default:
        return doc && { ...doc, _rev: e.revision };
    }
  },
};

export const apiKeysProjection: Projection<ApiKeyDoc> = {
  collection: 'api_keys',
  indexes: [['prefix'], ['account_id', 'created_at']],
  documentId: (e) => (e.type === 'ApiKeyIssued' || e.type === 'ApiKeyRevoked' ? e.data.api_key_id : null),
  apply(doc, event) {
    const e = event as E;
    switch (e.type) {
      case 'ApiKeyIssued':
        return { _id: e.data.api_key_id, _rev: e.revision, account_id: e.data.account_id, name: e.data.name, prefix: e.data.prefix, key_hash: e.data.key_hash, created_at: e.data.issued_at, revoked: false, revoked_at: null };
      case 'ApiKeyRevoked':
        return doc && { ...doc, _rev: e.revision, revoked: true, revoked_at: e.data.revoked_at };
      default:
        return doc;
    }
  },
};
