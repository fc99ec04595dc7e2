import type { ScanReport } from '@gauntlet/assessment';
import { proofShows, type Evidence } from '@gauntlet/domain';
import { reportFormat } from './report-format';

/** evidence with its proof said in words beside what it matched (`proof.shows`), as the API has it */
function withShows<E extends Evidence | undefined>(evidence: E): E {
  const p = evidence?.proof;
  return p ? { ...evidence, proof: { ...p, shows: proofShows(p.matched) } } : evidence;
}

/**
 * The report model itself, indented: what the other formats are read from. Each proof also says
 * what it shows in words (`proof.shows`: the call the agent made, the request that came back),
 * the same sentence every other format prints.
 */
export function toJson(report: ScanReport): string {
  const said = {
    ...report,
    vulnerabilities: report.vulnerabilities.map((v) => ({ ...v, evidence: withShows(v.evidence), variants: v.variants.map((x) => ({ ...x, evidence: withShows(x.evidence) })) })),
  };
  return JSON.stringify(said, null, 2) + '\n';
}

export const json = reportFormat({
  name: 'json',
  label: 'JSON',
  contentType: 'application/json',
  extensions: ['json'],
  render: (report) => Buffer.from(toJson(report), 'utf8'),
});
