import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { apiKeyMatches, parseApiKey } from '@gauntlet/auth';
import type { AccountDoc, ApiKeyDoc } from '@gauntlet/read-models';
import { ProblemException } from '../http/problem';
import { RUNTIME, Runtime } from '../runtime';
import { ADMIN_ONLY, BEARER_ONLY, IS_PUBLIC, Principal } from './principal';

const JwtGuard = AuthGuard('jwt');

/**
 * Every route needs credentials unless marked @Public(): a bearer token (passport-jwt) or an
 * X-API-Key. Failures all answer the same 401, whatever was wrong, so nothing can be probed.
 */
@Injectable()
export class CredentialsGuard implements CanActivate {
  private readonly jwt = new JwtGuard();

  constructor(private readonly reflector: Reflector, @Inject(RUNTIME) private readonly runtime: Runtime) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const flag = (key: string) => this.reflector.getAllAndOverride<boolean>(key, [context.getHandler(), context.getClass()]);
    if (flag(IS_PUBLIC)) return true;
    const request = context.switchToHttp().getRequest();
    const authorization: string | undefined = request.headers.authorization;
    const apiKey: string | undefined = request.headers['x-api-key'];

    let principal: Principal | null = null;
    if (authorization) {
      const ok = await Promise.resolve(this.jwt.canActivate(context)).catch(() => false);
      principal = ok ? (request.user as Principal) : null;
    } else if (apiKey) {
      if (flag(BEARER_ONLY)) throw new ProblemException(403, 'This operation needs a signed-in user (Authorization: Bearer), not an API key.');
      principal = await this.fromApiKey(apiKey);
    }
    if (!principal) {
      throw new ProblemException(401, 'Send a valid bearer token (Authorization: Bearer <token>) or API key (X-API-Key).');
    }
    if (flag(ADMIN_ONLY) && principal.role !== 'admin') throw new ProblemException(403, 'This operation is for administrators.');
    request.principal = principal;
    return true;
  }

  private async fromApiKey(key: string): Promise<Principal | null> {
    const parsed = parseApiKey(key);
    if (!parsed) return null;
    const docs = this.runtime.infra.documents;
    const [record] = await docs.collection<ApiKeyDoc>('api_keys').find({ prefix: parsed.prefix }, { limit: 1 });
    if (!record || record.revoked || !apiKeyMatches(key, record.key_hash)) return null;
    const account = await docs.collection<AccountDoc>('accounts').get(record.account_id);
    if (!account) return null;
    return { account_id: account._id, email: account.email, role: account.role, plan: account.plan, via: 'api_key', api_key_id: record._id };
  }
}
