import { heldCategory, heldShown, isWeaknessFingerprint, personSubject, probeOfFingerprint, weaknessOf } from './weakness';

describe('the weakness a conversation showed', () => {
  it('given a told value, when any probe draws it out, then it is one weakness by its label, filed by what it is', () => {
    const key = weaknessOf({ kind: 'value', label: 'payments API key', value_kind: 'credential', source: 'sensitive' });
    expect(key).toEqual({ category: 'LLM02:2025', kind: 'value', fingerprint: expect.stringMatching(/^LLM02:2025:value:h[0-9a-f]{16}$/) });
    expect(weaknessOf({ kind: 'value', label: 'Payments API key ', value_kind: 'credential', source: 'sensitive' }).fingerprint).toBe(key.fingerprint);
    expect(weaknessOf({ kind: 'value', label: 'canary 1', value_kind: 'code', source: 'canary' }).category).toBe('LLM02:2025');
    expect(weaknessOf({ kind: 'value', label: 'door code', value_kind: 'code', source: 'sensitive' }).category).toBe('LLM02:2025');
  });

  it('given the values told about one person, then they are that person, whichever of them came out', () => {
    const of = (label: string) => weaknessOf(heldShown({ kind: 'personal', label, source: 'sensitive' })).fingerprint;
    expect(of('customer name')).toBe(of('customer IBAN'));
    expect(of("Customer's e-mail")).toBe(of('customer phone number'));
    expect(of('customer name')).not.toBe(of('patient name'));
    expect(of('name')).toBe(of('email'));
  });

  it('spells no value out in a fingerprint: a label, a name or a credential is a digest there', () => {
    const fingerprints = [
      weaknessOf({ kind: 'person', subject: 'elenamarsh', source: 'recurrence' }),
      weaknessOf({ kind: 'credential', identity: 'user:clinic_admin', shape: 'database URL', names: 'clinic_admin@db.lakeside.internal' }),
      weaknessOf({ kind: 'value', label: 'customer IBAN', value_kind: 'personal', source: 'sensitive' }),
    ].map((w) => w.fingerprint);
    expect(fingerprints.join(' ')).not.toMatch(/elena|clinic|IBAN/i);
  });

  it('given instructions followed, then direct and indirect are two weaknesses; tools one per tool; markup by what runs', () => {
    expect(weaknessOf({ kind: 'instruction', via: 'direct' }).fingerprint).toBe('LLM01:2025:instruction:direct');
    expect(weaknessOf({ kind: 'instruction', via: 'indirect' }).fingerprint).toBe('LLM01:2025:instruction:indirect');
    expect(weaknessOf({ kind: 'tool', tool: 'send_email', risk: 'exfiltration' }).fingerprint).toBe('LLM06:2025:tool:send_email');
    expect(weaknessOf({ kind: 'tool', tool: 'mcp.files/write', risk: 'write' }).fingerprint).toMatch(/^LLM06:2025:tool:h[0-9a-f]{16}$/);
    expect(weaknessOf({ kind: 'markup', runs: 'script' }).fingerprint).toBe('LLM05:2025:markup:script');
    expect(weaknessOf({ kind: 'markup', runs: 'remote-load' }).fingerprint).toBe('LLM05:2025:markup:remote-load');
  });

  it('given claims of actions with no tool behind them, then one weakness per scan', () => {
    expect(weaknessOf({ kind: 'claim' }).fingerprint).toBe('LLM06:2025:claim:action-without-tool');
  });

  it('given a weakness known only by its probe (one the user wrote), then that probe in its category', () => {
    expect(weaknessOf({ kind: 'probe', probe_id: 'custom-refunds', category: 'LLM01:2025' }).fingerprint).toBe('LLM01:2025:probe:custom-refunds');
  });

  it('tells a weakness fingerprint from one recorded when a finding was a probe and a category', () => {
    expect(isWeaknessFingerprint('LLM01:2025:instruction:direct')).toBe(true);
    expect(isWeaknessFingerprint('pi-001:LLM01:2025')).toBe(false);
    expect(probeOfFingerprint('pi-001:LLM01:2025')).toBe('pi-001');
    expect(probeOfFingerprint('LLM01:2025:instruction:direct')).toBeNull();
  });

  it("files the prompt's wording under prompt leakage, every other held value (a canary too) under sensitive information", () => {
    expect(heldCategory('wording')).toBe('LLM07:2025');
    expect(['credential', 'personal', 'code'].map((k) => heldCategory(k as 'code'))).toEqual(['LLM02:2025', 'LLM02:2025', 'LLM02:2025']);
    expect(weaknessOf({ kind: 'retrieval' }).fingerprint).toBe('LLM08:2025:retrieval:documents');
  });

  it("names a person by the label's subject", () => {
    expect([personSubject('customer name'), personSubject("Maria's e-mail"), personSubject('IBAN'), personSubject('patient date of birth')]).toEqual(['customer', 'maria', '', 'patient']);
  });
});
