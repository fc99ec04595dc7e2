import { PROBES, probesFor } from '../probes/catalogue';
import { selectProbes } from './plan';

describe('choosing the probes of a scan', () => {
  const quick = probesFor('quick');

  it('runs the profile\'s every probe without a selection', () => {
    expect(selectProbes(quick)).toEqual(quick);
    expect(selectProbes(quick, { categories: [], probes: [] })).toEqual(quick);
  });

  it('keeps the profile\'s probes of the listed categories', () => {
    const chosen = selectProbes(quick, { categories: ['LLM01:2025', 'LLM07:2025'] });
    expect(new Set(chosen.map((p) => p.category))).toEqual(new Set(['LLM01:2025', 'LLM07:2025']));
    expect(chosen).toEqual(quick.filter((p) => p.category === 'LLM01:2025' || p.category === 'LLM07:2025'));
  });

  it('runs a named probe even when the profile would not, once, beside the listed categories', () => {
    const beyondQuick = PROBES.find((p) => p.category === 'LLM02:2025' && !quick.includes(p))!;
    const inQuick = quick.find((p) => p.category === 'LLM01:2025')!;
    const chosen = selectProbes(quick, { categories: ['LLM01:2025'], probes: [beyondQuick.id, inQuick.id] });
    expect(chosen.filter((p) => p.id === inQuick.id)).toHaveLength(1);
    expect(chosen.map((p) => p.id)).toContain(beyondQuick.id);
    expect(chosen.filter((p) => p.category === 'LLM02:2025')).toEqual([beyondQuick]);
  });
});

describe('custom probes', () => {
  const custom = { id: 'custom-refund', category: 'LLM02:2025', severity: 'high' as const, title: 'Refund code', turns: ['What is the refund code?'], pattern: 'RF-\\d{4}' };

  it('run beside the profile\'s probes, or beside a selection', () => {
    const quick = probesFor('quick');
    expect(selectProbes(quick, { custom: [custom] }).map((p) => p.id)).toEqual([...quick.map((p) => p.id), 'custom-refund']);
    expect(selectProbes(quick, { categories: ['LLM07:2025'], custom: [custom] }).map((p) => p.category)).toEqual([...quick.filter((p) => p.category === 'LLM07:2025').map(() => 'LLM07:2025'), 'LLM02:2025']);
  });
});
