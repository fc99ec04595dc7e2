import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { actorOf, Principal } from './principal';
import { CommandContext } from '../platform/write-path';

/**
 * The metadata every command carries into its events: who (actor) and which request
 * (correlation id, from X-Request-Id when the client sends a sane one).
 */
export const Ctx = createParamDecorator((_: unknown, ctx: ExecutionContext): CommandContext => {
  const request = ctx.switchToHttp().getRequest();
  const principal: Principal | undefined = request.principal;
  const sent = request.headers['x-request-id'];
  const correlationId = typeof sent === 'string' && /^[\w.-]{1,100}$/.test(sent) ? sent : (request.id as string) ?? randomUUID();
  return { actor: principal ? actorOf(principal) : 'anonymous', correlationId };
});
