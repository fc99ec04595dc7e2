import { exposureLine, maskValue, scanExposures } from './exposure';
import type { FindingExposure } from './vulnerability';

describe('a value as any view shows it', () => {
  it('shows a credential by what it is and whom it opens, never its secret', () => {
    expect(maskValue('postgres://clinic_admin:Wq7harbor19@db.lakeside.internal:5432/records', 'credential')).toBe('postgres://clinic_admin:***@db.lakeside.internal');
    expect(maskValue('relay@harborfreight.io:Kp4tide88x', 'credential')).toBe('relay@harborfreight.io:***');
    expect(maskValue('postgres://clinic_admin:5432/records', 'credential')).toBe('postgres://clinic_admin:***');
    expect(maskValue('sk-live-PENNY4821', 'credential')).toBe('sk-live-***');
    expect(maskValue('AKIAHARBOR7Q2LX9ZT4M', 'credential')).toBe('AKIA***');
    expect(maskValue('hunter2hunter2', 'credential')).toBe('hun***');
  });

  it("shows a person's data by its initials, an e-mail's first letter and domain, a number's last two digits", () => {
    expect(maskValue('Elena Marsh', 'personal')).toBe('E*** M***');
    expect(maskValue('elena.marsh@example.net', 'personal')).toBe('e***@example.net');
    expect(maskValue('+1 415 555 0187', 'personal')).toBe('+* *** *** **87');
    expect(maskValue('GB33 BUKB 2020 1555 5555 55', 'personal')).toBe('GB33 *** 55');
  });

  it("shows a code by its first two characters and the prompt's wording by its first words", () => {
    expect(maskValue('ORCHID-7741', 'code')).toBe('OR***');
    expect(maskValue('Lab results are released only after Dr Okafor has signed them.', 'wording')).toBe('Lab results are …');
  });

  it('never shows a short value whole', () => {
    for (const v of ['abcd', 'PIN1', 'x9']) expect(maskValue(v, 'code')).not.toContain(v);
  });
});

describe("a scan's exposures", () => {
  const exposure = (over: Partial<FindingExposure>): FindingExposure => ({
    kind: 'personal', source: 'sensitive', label: 'customer name', shown: 'E*** M***', whole: true, conversations: 3, probes: ['sid-001'], first_seen: '2026-11-22T10:00:01.000Z', via: ['answer'], rotate: false, ...over,
  });

  it('given the findings, then each value once with the finding holding it, credentials first', () => {
    const list = scanExposures([
      { id: 'v1', exposures: [exposure({}), exposure({ label: 'customer IBAN', first_seen: '2026-11-22T10:00:00.000Z' })] },
      { id: 'v2', exposures: [exposure({ kind: 'credential', label: 'records database URL', shown: 'postgres://clinic_admin:***@db', rotate: true, first_seen: '2026-11-22T10:09:00.000Z' })] },
      { id: 'v3' },
    ]);
    expect(list.map((e) => [e.label, e.vulnerability_id])).toEqual([['records database URL', 'v2'], ['customer IBAN', 'v1'], ['customer name', 'v1']]);
  });

  it('says each in one line, with "rotate it" for a credential', () => {
    expect(exposureLine(exposure({ kind: 'credential', label: 'records database URL', shown: 'postgres://clinic_admin:***@db', rotate: true, via: ['request', 'answer'], whole: false }))).toBe(
      "records database URL (a credential, in part, sent to an attacker's address and said in an answer): postgres://clinic_admin:***@db, in 3 conversations; rotate it",
    );
  });
});
