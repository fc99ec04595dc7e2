import { Controller, Get, Header, Headers, Inject, Res } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import { bearerToken, Public } from '../http/principal';
import { ProblemException } from '../http/problem';
import type { Config } from '../config/config';
import { Metrics } from '../platform/metrics';
import { CONFIG } from '../platform/tokens';
import { Readiness } from './readiness';

/** compared as digests, in constant time: nothing about the token leaks through timing */
const sameSecret = (given: string, expected: string) =>
  timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());

/** Probes for orchestrators and scrapers: not rate limited, no credentials. */
@ApiExcludeController()
@SkipThrottle()
@Public()
@Controller()
export class HealthController {
  constructor(private readonly readiness: Readiness, private readonly meters: Metrics, @Inject(CONFIG) private readonly config: Config) {}

  @Get('healthz')
  alive() {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const { up, checks, projection } = await this.readiness.check();
    if (!up) {
      reply.status(503).header('Retry-After', '5');
    }
    return { status: up ? 'ready' : 'unavailable', checks, projection };
  }

  /** with METRICS_TOKEN set, only a scraper sending it as a bearer token reads the metrics */
  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  metrics(@Headers('authorization') authorization: string | undefined) {
    const expected = this.config.metricsToken;
    if (expected !== null && !sameSecret(bearerToken(authorization) ?? '', expected)) {
      throw new ProblemException(401, 'Send the metrics token: Authorization: Bearer <METRICS_TOKEN>.');
    }
    return this.meters.registry.metrics();
  }
}
