import { normalizeIp } from '@nestjs/throttler';

/** The api's one rate limit window (api-spec.md section 8: requests per minute per client IP). */
export const RATE_LIMIT_WINDOW_MS = 60_000;
export const RATE_LIMIT_THROTTLER = 'default';

/** who a request counts against: its IP (IPv6 by /64, so one host cannot rotate addresses) */
export const rateLimitTracker = (ip: string): string => normalizeIp(ip);

/**
 * The storage key of a client's budget. The client alone: @nestjs/throttler's default key also
 * names the controller and handler, which gives every route a budget of its own.
 */
export const rateLimitKey = (tracker: string, throttler = RATE_LIMIT_THROTTLER): string => `${throttler}:${tracker}`;
