import type { AccountDoc, ApiKeyDoc, DocumentStore } from '@gauntlet/read-models';

/** Accounts and their API keys as the read models have them: what authentication reads on every request. */
export class AccountReader {
  constructor(private readonly docs: DocumentStore) {}

  get(id: string): Promise<AccountDoc | null> {
    return this.docs.collection<AccountDoc>('accounts').get(id);
  }

  /** `email` normalised */
  async byEmail(email: string): Promise<AccountDoc | null> {
    const [account] = await this.docs.collection<AccountDoc>('accounts').find({ email }, { limit: 1 });
    return account ?? null;
  }

  async apiKeyByPrefix(prefix: string): Promise<ApiKeyDoc | null> {
    const [key] = await this.docs.collection<ApiKeyDoc>('api_keys').find({ prefix }, { limit: 1 });
    return key ?? null;
  }

  /** the account's keys that still work, newest first */
  activeApiKeys(account_id: string): Promise<ApiKeyDoc[]> {
    return this.docs.collection<ApiKeyDoc>('api_keys').find({ account_id, revoked: false }, { sort: { field: 'created_at', direction: 'desc' }, limit: 100 });
  }
}
