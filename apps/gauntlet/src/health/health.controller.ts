import { Controller, Get, Header, Headers, Inject, Res } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import { bearerToken, Public } from '../auth/principal';
import { ProblemException } from '../http/problem';
import { RUNTIME, Runtime } from '../runtime';

const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);

/** compared as digests, in constant time: nothing about the token leaks through timing */
const sameSecret = (given: string, expected: string) =>
  timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());

/** Probes for orchestrators and scrapers: not rate limited, no credentials. */
@ApiExcludeController()
@SkipThrottle()
@Public()
@Controller()
export class HealthController {
  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  @Get('healthz')
  alive() {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const { infra, projector } = this.runtime;
    const check = async (name: string, fn: () => Promise<unknown>) => {
      try {
        await within(fn(), 2000);
        return [name, { status: 'up' }] as const;
      } catch (err) {
        return [name, { status: 'down', error: err instanceof Error ? err.message : 'unreachable' }] as const;
      }
    };
    const checks = Object.fromEntries(
      await Promise.all([
        check(`event_store (${infra.kinds.events})`, () => infra.events.headPosition()),
        check(`documents (${infra.kinds.documents})`, () => infra.documents.ping()),
        check(`bus (${infra.kinds.bus})`, () => infra.bus.ping()),
      ]),
    );
    let projection: Record<string, unknown> = {};
    try {
      const [head, at] = await Promise.all([infra.events.headPosition(), projector.checkpoint()]);
      const lag = head === null ? 0 : Number(head - (at ?? 0n));
      this.runtime.metrics.projectionLag.set(lag);
      projection = { checkpoint: at === null ? null : String(at), head: head === null ? null : String(head), lag, last_error: projector.lastError };
    } catch {
      projection = { lag: null };
    }
    const up = Object.values(checks).every((c) => (c as { status: string }).status === 'up');
    if (!up) {
      reply.status(503).header('Retry-After', '5');
    }
    return { status: up ? 'ready' : 'unavailable', checks, projection };
  }

  /** with METRICS_TOKEN set, only a scraper sending it as a bearer token reads the metrics */
  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  metrics(@Headers('authorization') authorization: string | undefined) {
    const expected = this.runtime.config.metricsToken;
    if (expected !== null && !sameSecret(bearerToken(authorization) ?? '', expected)) {
      throw new ProblemException(401, 'Send the metrics token: Authorization: Bearer <METRICS_TOKEN>.');
    }
    return this.runtime.metrics.registry.metrics();
  }
}
