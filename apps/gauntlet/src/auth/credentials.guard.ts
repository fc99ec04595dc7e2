import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { apiKeyMatches, parseApiKey } from '@gauntlet/auth';
import { ProblemException } from '../http/problem';
import { AccountReader } from './account-reader';
import { VerifiedSessions } from './verified-sessions';
import { ADMIN_ONLY, BEARER_ONLY, bearerToken, IS_PUBLIC, Principal, principalOf } from './principal';

const JwtGuard = AuthGuard('jwt');

/**
 * Every route needs credentials unless marked @Public(): a bearer token (passport-jwt) or an
 * X-API-Key. Failures all answer the same 401, whatever was wrong, so nothing can be probed.
 */
@Injectable()
export class CredentialsGuard implements CanActivate {
  private readonly jwt = new JwtGuard();
  /** a route's markers never change: read its metadata once, not on every request */
  private readonly markers = new WeakMap<object, { public: boolean; bearerOnly: boolean; adminOnly: boolean }>();

  constructor(private readonly reflector: Reflector, private readonly sessions: VerifiedSessions, private readonly accounts: AccountReader) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.markersOf(context);
    if (route.public) return true;
    const request = context.switchToHttp().getRequest();
    const authorization: string | undefined = request.headers.authorization;
    const apiKey: string | undefined = request.headers['x-api-key'];

    let principal: Principal | null = null;
    if (authorization !== undefined && apiKey !== undefined) {
      // which one would be meant is a guess, and a guess is how a bad key slips by on a good token
      throw new ProblemException(401, 'Send one credential: a bearer token or an API key, not both.');
    }
    if (authorization) {
      principal = await this.fromBearer(authorization, context);
    } else if (apiKey) {
      if (route.bearerOnly) throw new ProblemException(403, 'This operation needs a signed-in user (Authorization: Bearer), not an API key.');
      principal = await this.fromApiKey(apiKey);
    }
    if (!principal) {
      throw new ProblemException(401, 'Send a valid bearer token (Authorization: Bearer <token>) or API key (X-API-Key).');
    }
    if (route.adminOnly && principal.role !== 'admin') throw new ProblemException(403, 'This operation is for administrators.');
    request.principal = principal;
    return true;
  }

  private markersOf(context: ExecutionContext) {
    const handler = context.getHandler();
    let markers = this.markers.get(handler);
    if (!markers) {
      const flag = (key: string) => this.reflector.getAllAndOverride<boolean>(key, [handler, context.getClass()]) === true;
      markers = { public: flag(IS_PUBLIC), bearerOnly: flag(BEARER_ONLY), adminOnly: flag(ADMIN_ONLY) };
      this.markers.set(handler, markers);
    }
    return markers;
  }

  /** passport-jwt verifies a token the first time; until it expires, only its account is read */
  private async fromBearer(authorization: string, context: ExecutionContext): Promise<Principal | null> {
    const token = bearerToken(authorization);
    const remembered = await this.sessions.account(token);
    if (remembered !== undefined) return remembered ? principalOf(remembered, 'bearer') : null;
    const ok = await Promise.resolve(this.jwt.canActivate(context)).catch(() => false);
    if (!ok) return null;
    const principal = context.switchToHttp().getRequest().user as Principal;
    if (token) this.sessions.remember(token, principal.account_id);
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
