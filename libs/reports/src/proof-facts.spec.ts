import { buildScanReport } from '@gauntlet/assessment';
import { proofLines, proofLinesOf, type ProofMatch } from '@gauntlet/domain';
import { KINDS_WITH_FACTS, proofWithEveryFact } from '@gauntlet/testing';
import { parse as parseCsv } from 'csv-parse/sync';
import { sampleHistory, sampleToolCallFinding } from '../../assessment/testing/sample-history';
import { SARIF_PROOF_PROPERTIES, toSarif } from './ci';
import { CSV_PROOF_COLUMNS, toCsv } from './formats/csv';

const ctx = { baseUrl: 'https://gauntlet.example', generatedAt: '2026-11-21T09:00:00.000Z', target: { url: 'https://agent.example/v1', scan_mode: 'api' } };

/** a finding proven by `matched` */
function provenBy(matched: ProofMatch) {
  const v = sampleToolCallFinding();
  v.evidence.proof = { ...v.evidence.proof!, matched };
  return v;
}

describe.each(KINDS_WITH_FACTS)('every fact PROOF_FACTS declares for %s is in the CI and report formats', (kind) => {
  const matched = proofWithEveryFact(kind);

  it('csv: each fact as a line in its own column, whole where it is data; the other proof columns empty', () => {
    const report = buildScanReport(sampleHistory({ seed: 4, findings: 1 }), ctx);
    report.vulnerabilities = [provenBy(matched)];
    const [row]: Record<string, string>[] = parseCsv(toCsv(report), { columns: true });
    const expected = Object.fromEntries(Object.values(CSV_PROOF_COLUMNS).map((c) => [c, '']));
    for (const f of proofLinesOf(kind)) expected[CSV_PROOF_COLUMNS[f.name]] = f.whole?.(matched) ?? f.read(matched) ?? '';
    expect(row).toMatchObject({ proof_kind: kind, ...expected });
    // each of them says something, so none is lost in an empty cell
    for (const [name] of proofLines(matched)) expect(row[CSV_PROOF_COLUMNS[name]]).not.toBe('');
  });

  it('SARIF: each fact as a line in its own property', () => {
    const sarif: any = toSarif({ id: 's-1', vulnerabilities: [provenBy(matched)] }, { version: '0.1.0' });
    const properties = sarif.runs[0].results[0].properties;
    expect(proofLines(matched).length).toBe(proofLinesOf(kind).length);
    for (const [name, value] of proofLines(matched)) expect(properties[SARIF_PROOF_PROPERTIES[name]]).toBe(value);
  });
});

it('no two facts share a CSV column or a SARIF property', () => {
  for (const names of [Object.values(CSV_PROOF_COLUMNS), Object.values(SARIF_PROOF_PROPERTIES)]) expect(new Set(names).size).toBe(names.length);
});
