import { DomainError } from '../decider';
import { FREE_PLAN_REPORT_FORMATS, monthStart, nextMonthStart, requireReportFormat, requireScanQuota } from './plans';

/** given the facts, when the rule is asked, then it allows or refuses (and says why) */
const refusal = (fn: () => void): DomainError => {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('expected the rule to refuse');
};

describe('plan entitlements', () => {
  it('given the free plan, only json reports are included; given a paid plan, every format is, one added later too', () => {
    expect(FREE_PLAN_REPORT_FORMATS).toEqual(['json']);
    for (const format of ['pdf', 'json', 'csv', 'markdown', 'html', 'a-format-added-later']) {
      expect(() => requireReportFormat('pro', format)).not.toThrow();
      expect(() => requireReportFormat('enterprise', format)).not.toThrow();
    }
    expect(() => requireReportFormat('free', 'a-format-added-later')).toThrow(DomainError);
  });

  it('given the free plan, when a pdf is asked for, then it is forbidden with the formats the plan has', () => {
    const e = refusal(() => requireReportFormat('free', 'pdf'));
    expect(e.code).toBe('forbidden');
    expect(e.message).toBe('The free plan includes json reports; pdf needs the pro or enterprise plan.');
    expect(e.broken).toEqual({ rule: 'plan-format', title: 'Format not in your plan', facts: { plan: 'free', allowed_formats: ['json'] } });
  });

  it('given the free plan, when json is asked for, or a paid plan and anything, then it is allowed', () => {
    expect(() => requireReportFormat('free', 'json')).not.toThrow();
    expect(() => requireReportFormat('pro', 'pdf')).not.toThrow();
    expect(() => requireReportFormat('enterprise', 'html')).not.toThrow();
  });
});

describe('monthly scan quota', () => {
  it('resets at calendar month boundaries (UTC)', () => {
    const now = new Date('2026-12-31T23:59:59Z');
    expect(monthStart(now).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(nextMonthStart(now).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('given scans left this month, when a scan is requested, then it is allowed', () => {
    expect(() => requireScanQuota({ plan: 'free', allowed: 10, used: 9 }, '2026-12-31T23:59:59.000Z')).not.toThrow();
  });

  it('given the quota used up, when a scan is requested, then it is refused until the month turns', () => {
    const e = refusal(() => requireScanQuota({ plan: 'free', allowed: 10, used: 10 }, '2026-12-31T23:59:59.000Z'));
    expect(e.code).toBe('limit_exceeded');
    expect(e.message).toBe('The free plan allows 10 scans per calendar month; 10 were started since 2026-12-01.');
    expect(e.broken).toEqual({ rule: 'scan-quota', title: 'Scan quota exhausted', retryAfterSeconds: 1, facts: { plan: 'free', quota: 10, used: 10 } });
  });

  it('given an unlimited plan, when any number of scans were used, then it is allowed', () => {
    expect(() => requireScanQuota({ plan: 'enterprise', allowed: null, used: 1_000_000 }, '2026-12-31T23:59:59.000Z')).not.toThrow();
  });
});
