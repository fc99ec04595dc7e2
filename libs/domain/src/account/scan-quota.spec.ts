import { spec } from '@gauntlet/testing';
import { scanQuotaDecider, ScanQuotaEvent, SpendScanQuota } from './scan-quota';

const spent = (scan_id: string): ScanQuotaEvent => ({ type: 'ScanQuotaSpent', schemaVersion: 1, data: { account_id: 'a1', month: '2026-11', scan_id, spent_at: '2026-11-21T10:00:00.000Z' } });
const spend = (scan_id: string, facts: Partial<SpendScanQuota> = {}): SpendScanQuota => ({
  type: 'SpendScanQuota', account_id: 'a1', month: '2026-11', scan_id, plan: 'free', allowed: 2, now: '2026-11-21T10:00:00.000Z', ...facts,
});

describe('scan quota decider', () => {
  it('spends one scan of the month while the plan allows more', () => {
    spec(scanQuotaDecider).given([]).when(spend('s1')).then([spent('s1')]);
    spec(scanQuotaDecider).given([spent('s1')]).when(spend('s2')).then([spent('s2')]);
  });

  it('refuses the scan past the plan\'s monthly allowance until the month turns', () => {
    spec(scanQuotaDecider).given([spent('s1'), spent('s2')]).when(spend('s3')).thenFails('limit_exceeded', /free plan allows 2 scans per calendar month; 2 were started since 2026-11-01/);
  });

  it('never refuses an unlimited plan', () => {
    spec(scanQuotaDecider).given([spent('s1'), spent('s2')]).when(spend('s3', { plan: 'enterprise', allowed: null })).then([spent('s3')]);
  });

  it('treats the same scan again as a retry, even with the allowance spent', () => {
    spec(scanQuotaDecider).given([spent('s1'), spent('s2')]).when(spend('s2')).then([]);
  });
});
