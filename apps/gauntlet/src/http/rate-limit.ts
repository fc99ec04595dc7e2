import { Injectable } from '@nestjs/common';
import { normalizeIp, ThrottlerException, ThrottlerGuard, type ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerRequest } from '@nestjs/throttler/dist/throttler.guard.interface';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { BudgetStore, LeasedBudget } from '@gauntlet/auth';

/** The api's one rate limit window: RATE_LIMIT_PER_MINUTE counts requests per minute per client IP. */
export const RATE_LIMIT_WINDOW_MS = 60_000;
export const RATE_LIMIT_THROTTLER = 'default';

/** who a request counts against: its IP (IPv6 by /64, so one host cannot rotate addresses) */
export const rateLimitTracker = (ip: string): string => normalizeIp(ip);

/**
 * The storage key of a client's budget. The client alone: @nestjs/throttler's default key also
 * names the controller and handler, which gives every route a budget of its own.
 */
export const rateLimitKey = (tracker: string, throttler = RATE_LIMIT_THROTTLER): string => `${throttler}:${tracker}`;

/** What spending one request of a client's budget left: for the X-RateLimit headers, or a refusal. */
export interface SpentRequest {
  blocked: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
  /** when blocked: the seconds until the budget lets the client in again */
  retryAfterSeconds: number;
}

/** spends one request of the client's per-IP budget through `storage`: every route's guard and the status fast lane spend with it */
export function requestSpender(storage: ThrottlerStorage, limit: number): (ip: string) => Promise<SpentRequest> {
  return async (ip) => {
    const spent = await storage.increment(rateLimitKey(rateLimitTracker(ip)), RATE_LIMIT_WINDOW_MS, limit, RATE_LIMIT_WINDOW_MS, RATE_LIMIT_THROTTLER);
    return { blocked: spent.isBlocked, limit, remaining: Math.max(0, limit - spent.totalHits), resetSeconds: spent.timeToExpire, retryAfterSeconds: spent.timeToBlockExpire };
  };
}

/** what a reply says about the budget after a request it let through */
export function setRateLimitHeaders(reply: { header(name: string, value: number): unknown }, spent: SpentRequest): void {
  reply.header('X-RateLimit-Limit', spent.limit);
  reply.header('X-RateLimit-Remaining', spent.remaining);
  reply.header('X-RateLimit-Reset', spent.resetSeconds);
}

/**
 * @nestjs/throttler's guard (its @SkipThrottle and the module's limit) spending and answering
 * through requestSpender and setRateLimitHeaders, as the status fast lane does: one budget, one
 * set of headers, whichever path answers. A spent budget is a 429 with Retry-After.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  private readonly spenders = new Map<number, (ip: string) => Promise<SpentRequest>>();

  protected override async handleRequest({ context, limit }: ThrottlerRequest): Promise<boolean> {
    let spend = this.spenders.get(limit);
    if (!spend) this.spenders.set(limit, (spend = requestSpender(this.storageService, limit)));
    const { req, res } = this.getRequestResponse(context);
    const spent = await spend(req.ip);
    if (spent.blocked) {
      res.header('Retry-After', spent.retryAfterSeconds);
      throw new ThrottlerException();
    }
    setRateLimitHeaders(res as { header(name: string, value: number): unknown }, spent);
    return true;
  }
}

/**
 * @nestjs/throttler's storage on the shared budgets: the per-IP limit holds across every api
 * process and survives a restart, without a store round trip per request (LeasedBudget says
 * what bound holds). The ThrottlerGuard and the status fast lane both count through it.
 */
export class SharedThrottlerStorage implements ThrottlerStorage {
  private readonly budgets = new Map<string, LeasedBudget>();

  constructor(private readonly store: BudgetStore) {}

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const id = `${ttl}:${limit}`;
    let budget = this.budgets.get(id);
    if (!budget) this.budgets.set(id, (budget = new LeasedBudget(this.store, limit, ttl)));
    const spent = await budget.spend(key);
    const seconds = Math.max(1, Math.ceil(spent.resetMs / 1000));
    return {
      totalHits: spent.allowed ? limit - spent.remaining : limit + 1,
      timeToExpire: seconds,
      isBlocked: !spent.allowed,
      timeToBlockExpire: spent.allowed ? 0 : seconds,
    };
  }
}
