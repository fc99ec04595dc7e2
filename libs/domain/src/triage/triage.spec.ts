import { spec } from '@gauntlet/testing';
import type { TargetEvent } from '../target/target';
import { actorIds, actorName, decisionFor, effectiveTriage, isTriagedAway, TriageCommand, triageDecider, TriageDecision, TriageEvent } from './triage';

const now = '2026-11-21T10:00:00.000Z';
const registered: TargetEvent = {
  type: 'TargetRegistered', schemaVersion: 1,
  data: { target_id: 't1', account_id: 'a1', registered_at: now, name: 'bot', url: 'https://x', scan_mode: 'api', api_format: 'openai', api_key_encrypted: null, model: null, canaries: [], browser: null, http: null, max_requests_per_second: null },
};
const triage = (over: Partial<TriageCommand> = {}): TriageCommand => ({
  type: 'TriageFinding', account_id: 'a1', fingerprint: 'pi-001:LLM01:2025', state: 'false_positive', reason: 'the canary is public text', by: 'account:a1',
  expires_at: null, scan_id: 's1', vulnerability_id: 'v1', now, ...over,
});
const triaged = (over: Partial<TriageEvent['data']> = {}): TriageEvent => ({
  type: 'FindingTriaged', schemaVersion: 1,
  data: { target_id: 't1', account_id: 'a1', fingerprint: 'pi-001:LLM01:2025', state: 'false_positive', reason: 'the canary is public text', by: 'account:a1', at: now, expires_at: null, scan_id: 's1', vulnerability_id: 'v1', ...over },
});

describe('triage decider', () => {
  it('records who decided what about a fingerprint, and why', () => {
    spec(triageDecider).given([registered]).when(triage()).then([triaged()]);
  });

  it('answers an absent target, or another account’s, as not found', () => {
    spec(triageDecider).given([]).when(triage()).thenFails('not_found');
    spec(triageDecider).given([registered]).when(triage({ account_id: 'a2' })).thenFails('not_found');
  });

  it('needs a reason, trimmed and bounded', () => {
    spec(triageDecider).given([registered]).when(triage({ reason: '   ' })).thenFails('invalid', /reason/);
    spec(triageDecider).given([registered]).when(triage({ reason: 'x'.repeat(2001) })).thenFails('invalid', /2000/);
    const [e] = spec(triageDecider).given([registered]).when(triage({ reason: '  ticket SEC-12  ' })).thenEvents();
    expect(e.data).toMatchObject({ reason: 'ticket SEC-12' });
  });

  it('takes an expiry only on an accepted risk, and only in the future', () => {
    spec(triageDecider).given([registered]).when(triage({ expires_at: '2027-01-01T00:00:00.000Z' })).thenFails('invalid', /accepted_risk/);
    spec(triageDecider).given([registered]).when(triage({ state: 'accepted_risk', expires_at: '2026-11-20T00:00:00.000Z' })).thenFails('invalid', /future/);
    spec(triageDecider).given([registered]).when(triage({ state: 'accepted_risk', expires_at: 'soon' })).thenFails('invalid', /ISO 8601/);
    spec(triageDecider)
      .given([registered])
      .when(triage({ state: 'accepted_risk', expires_at: '2027-01-01T00:00:00.000Z' }))
      .then([triaged({ state: 'accepted_risk', expires_at: '2027-01-01T00:00:00.000Z' })]);
  });

  it('the same decision again records nothing; a change of mind is recorded', () => {
    spec(triageDecider).given([registered, triaged()]).when(triage()).then([]);
    spec(triageDecider).given([registered, triaged()]).when(triage({ state: 'open', reason: 'it was real after all' })).then([triaged({ state: 'open', reason: 'it was real after all' })]);
  });

  it('reopening a finding nobody triaged records nothing: it is open already', () => {
    spec(triageDecider).given([registered]).when(triage({ state: 'open' })).then([]);
  });

  it('decisions are per fingerprint', () => {
    spec(triageDecider).given([registered, triaged()]).when(triage({ fingerprint: 'pi-002:LLM01:2025' })).then([triaged({ fingerprint: 'pi-002:LLM01:2025' })]);
  });
});

describe('effective triage', () => {
  const decision = (over: Partial<TriageDecision>): TriageDecision => ({ ...triaged().data, ...over });

  it('an accepted risk holds until expires_at, then the finding is open again', () => {
    const accepted = decision({ state: 'accepted_risk', expires_at: '2026-12-01T00:00:00.000Z' });
    expect(effectiveTriage(accepted, now, '2026-11-30T23:59:59.000Z')).toMatchObject({ effective_state: 'accepted_risk' });
    expect(effectiveTriage(accepted, now, '2026-12-01T00:00:00.000Z')).toMatchObject({ effective_state: 'open', lapsed: 'expired' });
    expect(isTriagedAway(effectiveTriage(accepted, now, '2026-12-02T00:00:00.000Z'))).toBe(false);
    expect(isTriagedAway(effectiveTriage(decision({ state: 'accepted_risk' }), now, '2099-01-01T00:00:00.000Z'))).toBe(true);
  });

  it('a fix holds for scans from before it; a later scan that finds the weakness again shows it open', () => {
    const fixed = decision({ state: 'fixed', at: '2026-11-22T00:00:00.000Z' });
    expect(effectiveTriage(fixed, '2026-11-21T00:00:00.000Z', '2026-11-25T00:00:00.000Z')).toMatchObject({ effective_state: 'fixed' });
    expect(effectiveTriage(fixed, '2026-11-23T00:00:00.000Z', '2026-11-25T00:00:00.000Z')).toMatchObject({ effective_state: 'open', lapsed: 'found_again' });
  });

  it('a false positive carries to every later scan', () => {
    expect(effectiveTriage(decision({}), '2030-01-01T00:00:00.000Z', '2030-01-01T00:00:00.000Z')).toMatchObject({ effective_state: 'false_positive' });
    expect(effectiveTriage(null, now, now)).toBeNull();
  });
});

describe('who decided, as people read it', () => {
  const directory = { emails: new Map([['a1', 'ada@example.com']]), apiKeys: new Map([['k1', 'ci-pipeline']]) };

  it('names an account by its e-mail and an API key by its name; keeps what it does not know as recorded', () => {
    expect(actorName('account:a1', directory)).toBe('ada@example.com');
    expect(actorName('apikey:k1', directory)).toBe('API key ci-pipeline');
    expect(actorName('account:gone', directory)).toBe('account:gone');
    expect(actorName('system', directory)).toBe('system');
  });

  it('collects the ids to look up, once each', () => {
    expect(actorIds(['account:a1', 'apikey:k1', 'account:a1', 'system'])).toEqual({ accounts: ['a1'], apiKeys: ['k1'] });
  });
});

describe('the decision that applies to a finding', () => {
  const decision = (fingerprint: string, state: TriageDecision['state'], at = now): TriageDecision => ({ fingerprint, state, reason: 'r', by: 'account:a1', at, expires_at: null, scan_id: 's1', vulnerability_id: 'v1' });
  const weakness = { fingerprint: 'LLM02:2025:person:h1', supersedes: ['sid-001:LLM02:2025', 'spl-002:LLM02:2025'] };

  it('given a decision on its own fingerprint, then that one, whatever was decided on those it supersedes', () => {
    const d = new Map([weakness.fingerprint, 'sid-001:LLM02:2025'].map((f, i) => [f, decision(f, i ? 'fixed' : 'accepted_risk')]));
    expect(decisionFor(weakness, d)?.state).toBe('accepted_risk');
  });

  it('given decisions on the fingerprints it supersedes that agree, then the latest of them', () => {
    const d = new Map([
      ['sid-001:LLM02:2025', decision('sid-001:LLM02:2025', 'false_positive', '2026-11-20T00:00:00.000Z')],
      ['spl-002:LLM02:2025', decision('spl-002:LLM02:2025', 'false_positive', '2026-11-21T00:00:00.000Z')],
    ]);
    expect(decisionFor(weakness, d)?.at).toBe('2026-11-21T00:00:00.000Z');
  });

  it('given decisions on the fingerprints it supersedes that disagree, then none: open until someone decides', () => {
    const d = new Map([
      ['sid-001:LLM02:2025', decision('sid-001:LLM02:2025', 'false_positive')],
      ['spl-002:LLM02:2025', decision('spl-002:LLM02:2025', 'fixed')],
    ]);
    expect(decisionFor(weakness, d)).toBeUndefined();
    expect(decisionFor({ fingerprint: 'x' }, d)).toBeUndefined();
  });
});
