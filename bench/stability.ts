/**
 * Stability: the same unchanged lab scanned ten times, as the service scans it.
 *
 *   npm run build && node dist/bench/stability.js [scans, default 10] [profile, default standard]
 *
 * Each scan runs the engine in-process against the vulnerable lab through its OpenAI API, with the
 * seed the scanner uses (the target's id) and a fresh scan id, concurrency as the profile plans it.
 * It prints, per scan, the findings, how many fingerprints differ from the scan before (appeared +
 * disappeared), and how many findings a `fail_on: "new"` gate would report new under the domain's
 * rule (never seen on the target before). For comparison the same is printed with the seed the
 * scanner used before (the scan's id), and with "new" meaning "absent from the scan before".
 * Aim: 0 false "new" on an unchanged target.
 */
import { randomUUID } from 'node:crypto';
import { diffFindings, findingHistory, Profile, Vulnerability } from '@gauntlet/domain';
import { runScan } from '@gauntlet/scanner';
import { labChatDriver } from '../apps/lab/src/lab-client';
import { startLab } from '../apps/lab/src/lab';

const scans = Number(process.argv[2] ?? 10);
const profile = (process.argv[3] ?? 'standard') as Profile;

async function scanOnce(url: string, seed: string, scanId: string): Promise<Vulnerability[]> {
  const vulnerabilities: Vulnerability[] = [];
  const outcome = await runScan({
    scanId, seed, profile, driver: labChatDriver(url), signal: new AbortController().signal, now: () => new Date(),
    target: { id: 'lab', name: 'lab', url, scan_mode: 'api', api_format: 'openai', api_key: null, model: null, canaries: [], browser: null, http: null, max_requests_per_second: null },
    sink: { enterPhase: async () => {}, recordAttempt: async () => {}, recordVulnerability: async (v) => void vulnerabilities.push(v) },
  });
  if (outcome.kind !== 'completed') throw new Error(`scan ended ${JSON.stringify(outcome)}`);
  return vulnerabilities;
}

async function series(label: string, seedOf: (scanId: string) => string): Promise<void> {
  const lab = await startLab({ mode: 'vulnerable' });
  const history: { id: string; fingerprints: string[] }[] = [];
  let differing = 0;
  let newByHistory = 0;
  let newByPrevious = 0;
  try {
    console.log(`\n${label}`);
    console.log('scan | findings | differ from previous | new (history rule) | new (previous-scan rule)');
    for (let i = 1; i <= scans; i++) {
      const scanId = randomUUID();
      const found = await scanOnce(lab.url, seedOf(scanId), scanId);
      const prints = found.map((v) => v.fingerprint);
      const previous = history[0] ?? null;
      const changes = diffFindings(
        found.map((v) => ({ id: v.id, fingerprint: v.fingerprint })),
        previous && { id: previous.id, findings: previous.fingerprints.map((fingerprint) => ({ fingerprint, probe_id: fingerprint.slice(0, fingerprint.indexOf(':')) })) },
        undefined,
        findingHistory(history),
      );
      const before = new Set(previous?.fingerprints ?? []);
      const now = new Set(prints);
      const differ = previous ? [...now].filter((f) => !before.has(f)).length + [...before].filter((f) => !now.has(f)).length : 0;
      const byPrevious = previous ? prints.filter((f) => !before.has(f)).length : 0;
      const byHistory = previous ? changes.new.length : 0;
      differing += differ;
      newByHistory += byHistory;
      newByPrevious += byPrevious;
      console.log(`${String(i).padStart(4)} | ${String(found.length).padStart(8)} | ${String(differ).padStart(20)} | ${String(byHistory).padStart(18)} | ${String(byPrevious).padStart(24)}`);
      history.unshift({ id: scanId, fingerprints: prints });
    }
  } finally {
    await lab.close();
  }
  console.log(`total over ${scans - 1} consecutive pairs: ${differing} fingerprints differ; false "new" reported: ${newByHistory} (history rule), ${newByPrevious} (previous-scan rule)`);
}

async function main() {
  console.log(`stability: node dist/bench/stability.js ${scans} ${profile}`);
  await series("seed = the target's id (what the scanner uses)", () => 'target-lab');
  await series("seed = the scan's id (what the scanner used before)", (scanId) => scanId);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
