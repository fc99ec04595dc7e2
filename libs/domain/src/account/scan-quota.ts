import { Decider } from '../decider';
import { DomainEvent, event } from '../events';
import type { Plan } from './account';
import { requireScanQuota } from './plans';

export type ScanQuotaEvent = DomainEvent<'ScanQuotaSpent', { account_id: string; month: string; scan_id: string; spent_at: string }>;

/**
 * An account's scans of one calendar month, in a stream of their own (`streams.scanQuota`): a
 * scan request spends one here before its scan stream is written. The append, with the revision
 * the count was read at, is what keeps parallel requests from overshooting the plan; the count
 * comes from the log, never from a read model that may lag.
 */
export interface SpendScanQuota {
  type: 'SpendScanQuota';
  account_id: string;
  /** `YYYY-MM` (quotaMonth of `now`) */
  month: string;
  scan_id: string;
  plan: Plan;
  /** scans the plan allows per calendar month; null: unlimited */
  allowed: number | null;
  now: string;
}

export interface ScanQuotaState {
  scan_ids: string[];
}

export const scanQuotaDecider: Decider<SpendScanQuota, ScanQuotaEvent, ScanQuotaState> = {
  initialState: () => ({ scan_ids: [] }),

  decide(command, state) {
    if (state.scan_ids.includes(command.scan_id)) return []; // a retry of the same request
    requireScanQuota({ plan: command.plan, allowed: command.allowed, used: state.scan_ids.length }, command.now);
    return [event('ScanQuotaSpent', { account_id: command.account_id, month: command.month, scan_id: command.scan_id, spent_at: command.now })];
  },

  evolve(state, e) {
    return e.type === 'ScanQuotaSpent' ? { scan_ids: [...state.scan_ids, e.data.scan_id] } : state;
  },
};
