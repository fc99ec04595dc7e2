import type { Reflector } from '@nestjs/core';
import { apiKeyMatches, parseApiKey } from '@gauntlet/auth';
import { ProblemException } from '../http/problem';
import type { AccountReader } from './account-reader';
import { ADMIN_ONLY, BEARER_ONLY, bearerToken, IS_PUBLIC, Principal, principalOf } from '../http/principal';
import type { VerifiedSessions } from './verified-sessions';

/** What a route asks of its caller: its @Public(), @BearerOnly() and @AdminOnly() markers. */
export interface RouteMarkers {
  public: boolean;
  bearerOnly: boolean;
  adminOnly: boolean;
}

/** a route's markers, the handler's overriding its controller's */
export function routeMarkers(reflector: Reflector, handler: object, controller: object): RouteMarkers {
  const flag = (key: string) => reflector.getAllAndOverride<boolean>(key, [handler as never, controller as never]) === true;
  return { public: flag(IS_PUBLIC), bearerOnly: flag(BEARER_ONLY), adminOnly: flag(ADMIN_ONLY) };
}

/** verifies a bearer token this process has not seen yet (passport-jwt), null when it is not valid */
export type VerifyToken = () => Promise<Principal | null>;

/** the headers that carry credentials */
export interface CredentialHeaders {
  authorization?: string;
  'x-api-key'?: string | string[];
}

/**
 * Who is calling, from a bearer token or an X-API-Key, and whether the route lets them in. The
 * CredentialsGuard asks it for every route, and the status fast lane for the polled status, so
 * both admit and refuse the same callers. Failures all answer the same 401, whatever was wrong,
 * so nothing can be probed.
 */
export class Authenticator {
  constructor(private readonly sessions: Pick<VerifiedSessions, 'account' | 'remember'>, private readonly accounts: Pick<AccountReader, 'get' | 'apiKeyByPrefix'>) {}

  /**
   * The caller the route admits, or a ProblemException (401, 403). A bearer token is verified by
   * `verify` the first time; until it expires only its account is read.
   */
  async identify(headers: CredentialHeaders, route: RouteMarkers, verify: VerifyToken): Promise<Principal> {
    const authorization = headers.authorization;
    const apiKey = headers['x-api-key'] as string | undefined;
    let principal: Principal | null = null;
    if (authorization !== undefined && apiKey !== undefined) {
      // which one would be meant is a guess, and a guess is how a bad key slips by on a good token
      throw new ProblemException(401, 'Send one credential: a bearer token or an API key, not both.');
    }
    if (authorization) {
      principal = await this.fromBearer(authorization, verify);
    } else if (apiKey) {
      if (route.bearerOnly) throw new ProblemException(403, 'This operation needs a signed-in user (Authorization: Bearer), not an API key.');
      principal = await this.fromApiKey(apiKey);
    }
    if (!principal) {
      throw new ProblemException(401, 'Send a valid bearer token (Authorization: Bearer <token>) or API key (X-API-Key).');
    }
    if (route.adminOnly && principal.role !== 'admin') throw new ProblemException(403, 'This operation is for administrators.');
    return principal;
  }

  private async fromBearer(authorization: string, verify: VerifyToken): Promise<Principal | null> {
    const token = bearerToken(authorization);
    const remembered = await this.sessions.account(token);
    if (remembered !== undefined) return remembered ? principalOf(remembered, 'bearer') : null;
    const principal = await verify();
    if (principal && token) this.sessions.remember(token, principal.account_id);
    return principal;
  }

  private async fromApiKey(key: string): Promise<Principal | null> {
    const parsed = parseApiKey(key);
    if (!parsed) return null;
    const record = await this.accounts.apiKeyByPrefix(parsed.prefix);
    if (!record || record.revoked || !apiKeyMatches(key, record.key_hash)) return null;
    const account = await this.accounts.get(record.account_id);
    return account ? principalOf(account, 'api_key', record._id) : null;
  }
}
