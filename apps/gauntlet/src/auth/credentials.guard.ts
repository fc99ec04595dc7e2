import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { AccountReader } from './account-reader';
import { Authenticator, RouteMarkers, routeMarkers } from './authenticator';
import { VerifiedSessions } from './verified-sessions';
import type { Principal } from '../http/principal';

const JwtGuard = AuthGuard('jwt');

/**
 * Every route needs credentials unless marked @Public(): a bearer token (passport-jwt) or an
 * X-API-Key. Who the caller is and whether the route admits them is the Authenticator's to say.
 */
@Injectable()
export class CredentialsGuard implements CanActivate {
  private readonly jwt = new JwtGuard();
  private readonly authenticator: Authenticator;
  /** a route's markers never change: read its metadata once, not on every request */
  private readonly markers = new WeakMap<object, RouteMarkers>();

  constructor(private readonly reflector: Reflector, sessions: VerifiedSessions, accounts: AccountReader) {
    this.authenticator = new Authenticator(sessions, accounts);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.markersOf(context);
    if (route.public) return true;
    const request = context.switchToHttp().getRequest();
    request.principal = await this.authenticator.identify(request.headers, route, () => this.verify(context));
    return true;
  }

  private markersOf(context: ExecutionContext): RouteMarkers {
    const handler = context.getHandler();
    let markers = this.markers.get(handler);
    if (!markers) this.markers.set(handler, (markers = routeMarkers(this.reflector, handler, context.getClass())));
    return markers;
  }

  /** passport-jwt verifies a token the first time the process sees it */
  private async verify(context: ExecutionContext): Promise<Principal | null> {
    const ok = await Promise.resolve(this.jwt.canActivate(context)).catch(() => false);
    return ok ? (context.switchToHttp().getRequest().user as Principal) : null;
  }
}
