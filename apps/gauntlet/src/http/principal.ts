import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiForbiddenResponse } from '@nestjs/swagger';
import type { Plan, Role } from '@gauntlet/domain';
import type { AccountDoc } from '@gauntlet/read-models';

/** Who is calling, resolved from a bearer token or an API key, with the plan read fresh. */
export interface Principal {
  account_id: string;
  email: string;
  role: Role;
  plan: Plan;
  via: 'bearer' | 'api_key';
  api_key_id?: string;
}

export function principalOf(account: AccountDoc, via: Principal['via'], apiKeyId?: string): Principal {
  const principal: Principal = { account_id: account._id, email: account.email, role: account.role, plan: account.plan, via };
  if (apiKeyId) principal.api_key_id = apiKeyId;
  return principal;
}

/** the token of an `Authorization: Bearer <token>` header, or undefined */
export const bearerToken = (authorization: string | undefined): string | undefined =>
  authorization === undefined ? undefined : /^bearer +(\S+)$/i.exec(authorization)?.[1];

export const actorOf = (p: Principal) => (p.via === 'api_key' ? `apikey:${p.api_key_id}` : `account:${p.account_id}`);

export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => ctx.switchToHttp().getRequest().principal);

export const IS_PUBLIC = 'gauntlet:public';
/** no credentials needed (login, register, health, docs) */
export const Public = () => SetMetadata(IS_PUBLIC, true);

export const BEARER_ONLY = 'gauntlet:bearer-only';
/** an API key is not enough: managing keys and accounts needs a signed-in person */
export const BearerOnly = () => applyDecorators(SetMetadata(BEARER_ONLY, true), ApiForbiddenResponse({ description: 'called with an API key: this operation needs a bearer token' }));

export const ADMIN_ONLY = 'gauntlet:admin-only';
export const AdminOnly = () => applyDecorators(SetMetadata(ADMIN_ONLY, true), ApiForbiddenResponse({ description: 'for administrators only (or called with an API key)' }));
