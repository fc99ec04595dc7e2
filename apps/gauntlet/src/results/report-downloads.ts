import type { FastifyReply } from 'fastify';
import { BudgetStore, windowAt } from '@gauntlet/auth';
import { ProblemException } from '../http/problem';

const HOUR_MS = 3_600_000;

/** a download's claim on the budget: given back when the download does not happen */
export interface ReportDownloadSlot {
  giveBack(): Promise<void>;
}

/**
 * 30 report downloads per hour per account (REPORT_DOWNLOADS_PER_HOUR), counted in the shared
 * budget store so every api process spends one budget. Only downloads that happen count: the
 * route claims a unit once it has checked everything else (the scan is the caller's, ended, the
 * format in the plan), and gives it back when rendering or sending fails. Claiming before
 * rendering, not counting after, keeps the bound exact when downloads race. One store round
 * trip per download: they are rare.
 */
export class ReportDownloads {
  constructor(private readonly store: BudgetStore, readonly limit: number, private readonly now: () => number = Date.now) {}

  async claim(accountId: string, reply: FastifyReply): Promise<ReportDownloadSlot> {
    const now = this.now();
    const window = windowAt(now, HOUR_MS);
    const key = `report-downloads:${accountId}`;
    const { granted, spent } = await this.store.take(key, window, 1, this.limit);
    const resetSeconds = Math.max(1, Math.ceil((window.end - now) / 1000));
    reply.header('X-RateLimit-Limit-Reports', String(this.limit));
    reply.header('X-RateLimit-Remaining-Reports', String(Math.max(0, this.limit - spent)));
    reply.header('X-RateLimit-Reset-Reports', String(resetSeconds));
    if (granted === 0) {
      throw new ProblemException(429, `Your account may download ${this.limit} reports per hour; try again in ${Math.ceil(resetSeconds / 60)} minutes.`, {
        slug: 'report-download-limit', title: 'Report download limit reached', headers: { 'Retry-After': String(resetSeconds) },
      });
    }
    return { giveBack: () => this.store.giveBack(key, window, 1) };
  }
}
