import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/principal';
import { RUNTIME, Runtime } from '../runtime';

const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);

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

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  metrics() {
    return this.runtime.metrics.registry.metrics();
  }
}
