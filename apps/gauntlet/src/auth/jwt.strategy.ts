import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { createSecretKey } from 'node:crypto';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { Config } from '../config/config';
import { CONFIG } from '../platform/tokens';
import { AccountReader } from './account-reader';
import { Principal, principalOf } from '../http/principal';

export interface TokenClaims {
  sub: string;
  iat?: number;
  exp?: number;
}

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(@Inject(CONFIG) config: Config, private readonly accounts: AccountReader) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // a KeyObject: given a string, jsonwebtoken first tries (and fails) to parse it as a public key
      // on every request, which cost more than the rest of a status read together
      secretOrKey: createSecretKey(Buffer.from(config.jwtSecret, 'utf8')) as unknown as string,
      algorithms: ['HS256'],
      issuer: 'gauntlet',
      audience: 'gauntlet-api',
      ignoreExpiration: false,
    });
  }

  /**
   * Plan and role are read fresh on every request, so a plan change applies at once. A token
   * without an expiry is refused even when its signature holds: jsonwebtoken checks `exp` only
   * when there is one, and every token this service signs has one, so such a token was not made
   * here, or was made to live forever.
   */
  async validate(claims: TokenClaims): Promise<Principal | false> {
    if (typeof claims.exp !== 'number' || typeof claims.sub !== 'string') return false;
    const account = await this.accounts.get(claims.sub);
    return account ? principalOf(account, 'bearer') : false;
  }
}
