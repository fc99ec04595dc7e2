/**
 * Attack depth: what a scan finds on a defended chatbot, and what it spends finding it.
 *
 *   npm run build && node dist/bench/attack-depth.js [profiles, default quick,standard,deep] [labs, default all]
 *
 * For each lab (every weakness switch on, behind one kind of guardrail; plus the hardened lab,
 * which resists everything) and each profile, one scan with a fixed seed prints: recall (planted
 * OWASP categories with a finding / planted), false positives (high or critical findings on the
 * hardened lab, where every finding is false), the requests the target received, by phase, and
 * the wall time. The lab answers in-process with no added latency, so the wall time is the
 * engine's own cost plus the lab's.
 */
import { performance } from 'node:perf_hooks';
import { ProbeAttempt, Profile, Vulnerability } from '@gauntlet/domain';
import { runScan } from '@gauntlet/scanner';
import { PLANTED_CATEGORY, WEAKNESSES } from '../apps/lab/src/brain';
import { parseDefenses } from '../apps/lab/src/guardrails';
import { labChatDriver } from '../apps/lab/src/lab-client';
import { startLab } from '../apps/lab/src/lab';

const LABS: Record<string, { defenses: string; hardened?: boolean }> = {
  undefended: { defenses: '' },
  input_keywords: { defenses: 'input_keywords' },
  input_normalised: { defenses: 'input_normalised' },
  output_secrets: { defenses: 'output_secrets' },
  'crescendo:3': { defenses: 'crescendo:3' },
  'crescendo:5': { defenses: 'crescendo:5' },
  'all guardrails': { defenses: 'input_normalised,output_secrets,crescendo:3' },
  hardened: { defenses: '', hardened: true },
};

const profiles = (process.argv[2] ?? 'quick,standard,deep').split(',') as Profile[];
const labNames = process.argv[3] ? process.argv[3].split(',') : Object.keys(LABS);
const planted = [...new Set(WEAKNESSES.map((w) => PLANTED_CATEGORY[w]))].sort();

async function scanOnce(labName: string, profile: Profile) {
  const spec = LABS[labName];
  const lab = await startLab({ mode: spec.hardened ? 'hardened' : 'vulnerable', defenses: parseDefenses(spec.defenses) });
  const driver = labChatDriver(lab.url);
  const attempts: ProbeAttempt[] = [];
  const vulnerabilities: Vulnerability[] = [];
  const started = performance.now();
  try {
    const outcome = await runScan({
      scanId: `bench-${labName}-${profile}`, seed: 'attack-depth-bench', profile, driver, signal: new AbortController().signal, now: () => new Date(),
      target: { id: 't', name: labName, url: lab.url, scan_mode: 'api', api_format: 'openai', api_key: null, model: null, canaries: [], browser: null, http: null, max_requests_per_second: null },
      sink: { enterPhase: async () => {}, recordAttempt: async (a) => void attempts.push(a), recordVulnerability: async (v) => void vulnerabilities.push(v) },
    });
    if (outcome.kind !== 'completed') throw new Error(`${labName}/${profile}: scan ended ${JSON.stringify(outcome)}`);
  } finally {
    await lab.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const byPhase: Record<string, number> = {};
  for (const a of attempts) byPhase[a.phase] = (byPhase[a.phase] ?? 0) + a.turns.filter((t) => t.role === 'user').length;
  const found = new Set<string>(vulnerabilities.map((v) => v.category));
  const serious = vulnerabilities.filter((v) => v.severity === 'critical' || v.severity === 'high').length;
  return {
    recall: spec.hardened ? '-' : `${planted.filter((c) => found.has(c)).length}/${planted.length}`,
    missed: spec.hardened ? '' : planted.filter((c) => !found.has(c)).map((c) => c.slice(0, 5)).join(' '),
    falsePositives: spec.hardened ? `${serious} high+ of ${vulnerabilities.length}` : '-',
    requests: driver.requests(),
    phases: `recon ${byPhase.recon ?? 0}, probe ${byPhase.probe ?? 0}, amplify ${byPhase.amplify ?? 0}`,
    seconds,
  };
}

async function main() {
  console.log(`attack depth: node dist/bench/attack-depth.js ${profiles.join(',')} (planted categories: ${planted.join(' ')})`);
  const rows: string[][] = [['lab', 'profile', 'recall', 'missed', 'false positives', 'requests', 'by phase', 'wall s']];
  for (const labName of labNames) {
    for (const profile of profiles) {
      const r = await scanOnce(labName, profile);
      rows.push([labName, profile, r.recall, r.missed, r.falsePositives, String(r.requests), r.phases, r.seconds.toFixed(1)]);
      console.log(rows[rows.length - 1].join(' | '));
    }
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log(`\n${rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ')).join('\n')}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
