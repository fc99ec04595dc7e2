import { SEVERITIES } from '@gauntlet/domain';
import { OWASP_LLM_TOP10_2025, owaspCategory } from '@gauntlet/domain';
import { PARTIAL_COVERAGE, PROBES, probesFor, UNTESTABLE_CATEGORIES } from './catalogue';
import { canaryFor } from './canary';
import { DETECTOR_NAMES } from '../detectors/rules';
import { renderProbe } from './probe';

describe('probe catalogue', () => {
  it('has at least 60 probes with unique ids and every field filled', () => {
    expect(PROBES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(PROBES.map((p) => p.id)).size).toBe(PROBES.length);
    for (const p of PROBES) {
      expect(p.category).toMatch(/^LLM(0[1-9]|10):2025$/);
      expect(p.category_name).toBe(owaspCategory(p.category)?.name);
      expect(p.references[0]).toBe(owaspCategory(p.category)?.page);
      expect(SEVERITIES).toContain(p.severity);
      for (const field of [p.title, p.technique, p.description, p.remediation]) expect(field.trim().length).toBeGreaterThan(3);
      expect(p.turns.length).toBeGreaterThan(0);
      expect(p.detectors.length).toBeGreaterThan(0);
      for (const d of p.detectors) expect(DETECTOR_NAMES).toContain(d);
      expect(p.references.length).toBeGreaterThan(0);
      for (const r of p.references) expect(() => new URL(r)).not.toThrow();
    }
  });

  it('covers every OWASP LLM 2025 category or says why it cannot', () => {
    for (const category of OWASP_LLM_TOP10_2025.map((c) => c.id as string)) {
      const tested = PROBES.some((p) => p.category === category);
      const untestable = UNTESTABLE_CATEGORIES.find((u) => u.category === category);
      expect([category, tested !== Boolean(untestable)]).toEqual([category, true]);
      if (untestable) expect(untestable.reason.length).toBeGreaterThan(40);
    }
    expect(PARTIAL_COVERAGE['LLM08:2025']).toBeDefined();
  });

  it('has single-turn and multi-turn probes; references point at OWASP and MITRE ATLAS', () => {
    expect(PROBES.some((p) => p.turns.length > 1)).toBe(true);
    expect(PROBES.every((p) => p.references.some((r) => r.startsWith('https://genai.owasp.org/')))).toBe(true);
    expect(PROBES.filter((p) => p.references.some((r) => r.startsWith('https://atlas.mitre.org/techniques/AML.T'))).length).toBe(PROBES.length);
  });

  it('probes that need proof ask for a canary: worked out (never joined in the prompt) or spelled out', () => {
    const proofs = PROBES.filter((x) => x.detectors.includes('canary'));
    for (const p of proofs) {
      const r = renderProbe(p, 'seed');
      if (p.turns.join('\n').includes('{{canary:literal}}')) {
        expect(r.turns.join('\n')).toContain(`"${r.canary.value}"`);
        continue;
      }
      expect(p.turns.join('\n')).toContain('{{canary}}');
      expect(r.turns.join('\n')).not.toContain(r.canary.value);
      for (const part of r.canary.parts) expect(r.turns.join('\n')).toContain(`"${part}"`);
    }
    // both kinds of proof lead the injection category: a target may obey "reply with X" and work nothing out
    const leads = proofs.filter((p) => p.category === 'LLM01:2025').slice(0, 3).map((p) => p.turns.join('\n'));
    expect(leads.some((t) => t.includes('{{canary:literal}}')) && leads.some((t) => t.includes('{{canary}}'))).toBe(true);
    expect(PROBES.filter((p) => p.detectors.includes('misinformation')).every((p) => renderProbe(p, 's').entity)).toBe(true);
  });

  it('tokens are unique per probe and reproducible from the seed', () => {
    expect(canaryFor('a', 'pi-001')).toEqual(canaryFor('a', 'pi-001'));
    expect(canaryFor('a', 'pi-001').value).not.toBe(canaryFor('b', 'pi-001').value);
    expect(canaryFor('a', 'pi-001').value).not.toBe(canaryFor('a', 'pi-002').value);
    expect(canaryFor('a', 'x').value).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
  });

  it('the quick profile takes a few probes from each tested category', () => {
    const quick = probesFor('quick');
    expect(quick.length).toBeLessThan(PROBES.length);
    expect(new Set(quick.map((p) => p.category))).toEqual(new Set(PROBES.map((p) => p.category)));
  });
});
