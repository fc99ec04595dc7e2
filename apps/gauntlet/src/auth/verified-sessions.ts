import { VerifiedTokens } from '@gauntlet/auth';
import type { AccountDoc } from '@gauntlet/read-models';
import { AccountReader } from './account-reader';

/**
 * Bearer tokens passport-jwt has verified in this process, with the account each one names: the
 * guard remembers a token after its first verification, and until it expires only its account
 * is read. The status fast lane answers only tokens remembered here.
 */
export class VerifiedSessions {
  constructor(private readonly tokens: VerifiedTokens, private readonly accounts: AccountReader) {}

  /** the account of a remembered token (null: the account is gone), or undefined when the token must be verified */
  async account(token: string | undefined): Promise<AccountDoc | null | undefined> {
    const subject = token === undefined ? undefined : this.tokens.subjectOf(token);
    if (subject === undefined) return undefined;
    return this.accounts.get(subject);
  }

  /** a token passport-jwt has just verified, remembered until its exp */
  remember(token: string, account_id: string): void {
    this.tokens.remember(token, account_id, expiryOf(token));
  }
}

/** the exp claim of a token passport-jwt has just verified */
function expiryOf(token: string): number | undefined {
  const exp = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')).exp;
  return typeof exp === 'number' ? exp : undefined;
}
