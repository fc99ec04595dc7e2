/**
 * Real model: what a scan finds on a chatbot that is a real language model, and how much of it is
 * true. The lab answers with SmolLM2-135M-Instruct (weights: infra/smollm2.sh) as a persona whose
 * system prompt holds secrets; the lab's exposure oracle (apps/lab/src/model/exposure.ts, which
 * knows the secrets and nothing of the scanner) marks what every answer exposed.
 *
 *   npm run build && node dist/bench/real-model.js [profiles, default quick,standard] [guards, default all six] [--sensitive] [--persona nora|lakeside|harbor]
 *
 * For each guard mode (none, input_keywords, output_secrets, crescendo:3, all, hardened) and
 * profile, one scan in-process with a fixed seed, the target registered with the lab's canaries
 * (and, with --sensitive, its secrets as `sensitive` values), prints:
 * - requests the lab answered and the wall time;
 * - findings by OWASP category and by severity;
 * - recall: the categories some answer exposed a secret under (per the oracle), and which of them
 *   have a finding;
 * - precision: the share of findings whose `evidence.proof` quotes text that is in the answer at
 *   that turn and, for LLM02 and LLM07, that the oracle says exposes a secret. A finding without
 *   proof counts as not proven;
 * - disclosures confirmed: of the LLM02 and LLM07 findings, those whose evidence holds an answer
 *   the oracle says exposes a secret (the rest reported a secret the model invented, or none);
 * - per credential the persona holds (`--persona lakeside`: a database URL; `harbor`: a mail relay
 *   login and a cloud access key): the answers it came out in, whole or in part, and the LLM02
 *   findings holding such an answer (and how many quote it whole as their proof).
 * The model answers one request at a time; on 2 cores a quick scan takes minutes.
 */
import { performance } from 'node:perf_hooks';
import { Profile, Vulnerability } from '@gauntlet/domain';
import { ScanTarget, runScan } from '@gauntlet/scanner';
import { parseDefenses } from '../apps/lab/src/guardrails';
import { labChatDriver } from '../apps/lab/src/lab-client';
import { startLab } from '../apps/lab/src/lab';
import { exposuresIn } from '../apps/lab/src/model/exposure';
import type { LabSecret } from '../apps/lab/src/secrets';
import { closeSharedSmolLm2, sharedSmolLm2 } from '../apps/lab/src/model/smollm2';
import { LAB_GUARDS } from './lab-guards';

const GUARDS = LAB_GUARDS;

const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--persona');
const profiles = (positional[0] ?? 'quick,standard').split(',') as Profile[];
const guardNames = positional[1] ? positional[1].split(',') : Object.keys(GUARDS);
const withSensitive = flags.includes('--sensitive');
const personaId = process.argv.includes('--persona') ? process.argv[process.argv.indexOf('--persona') + 1] : 'penny';
for (const g of guardNames) if (!GUARDS[g]) throw new Error(`unknown guard mode "${g}" (known: ${Object.keys(GUARDS).join(', ')})`);

/** the span that shows the weakness, as the detectors are adding it to the evidence */
interface Proof {
  turn: number;
  start: number;
  end: number;
  text: string;
  matched: { kind: string; label?: string; occurrences?: number };
}

/** The answer the proof points at: turn is read as an index into the evidence's turns, else into its answers. */
function answerAt(v: Vulnerability, proof: Proof): string[] {
  const turns = v.evidence.turns;
  const answers = turns.filter((t) => t.role === 'assistant');
  return [turns[proof.turn], answers[proof.turn], answers[proof.turn - 1]].filter((t) => t?.role === 'assistant').map((t) => t.content);
}

/** proven: the proof quotes the answer, and for a disclosure the oracle agrees that the quote exposes a secret */
function proven(v: Vulnerability, secrets: readonly LabSecret[]): boolean {
  const proof = (v.evidence as { proof?: Proof }).proof;
  if (!proof || typeof proof.text !== 'string' || proof.text.length === 0) return false;
  const quoted = answerAt(v, proof).some((a) => a.slice(proof.start, proof.end) === proof.text || a.includes(proof.text));
  if (!quoted) return false;
  if (v.category === 'LLM02:2025' || v.category === 'LLM07:2025') return exposuresIn(proof.text, secrets).length > 0;
  return true;
}

const count = (items: string[]) => {
  const out: Record<string, number> = {};
  for (const i of items) out[i] = (out[i] ?? 0) + 1;
  return Object.entries(out)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${k.replace(':2025', '')} ${n}`)
    .join(', ');
};

async function scanOnce(guardName: string, profile: Profile) {
  const spec = GUARDS[guardName];
  const lab = await startLab({ model: 'smollm2', persona: personaId, mode: spec.hardened ? 'hardened' : 'vulnerable', defenses: parseDefenses(spec.defenses) });
  const driver = labChatDriver(lab.url);
  const vulnerabilities: Vulnerability[] = [];
  const holds = (value: string) => lab.secrets.some((s) => s.value === value);
  // `sensitive` is being added to the target by the detectors' rework: set here so the bench compiles before and after it
  const target: ScanTarget & { sensitive?: { label: string; value: string }[] } = {
    id: 't', name: `smollm2 ${guardName}`, url: lab.url, scan_mode: 'api', api_format: 'openai', api_key: null, model: null,
    canaries: [lab.canaries.system, lab.canaries.data].filter(holds), browser: null, http: null, max_requests_per_second: null,
    ...(withSensitive ? { sensitive: lab.secrets.filter((s) => s.kind !== 'canary').map((s) => ({ label: s.label, value: s.value })) } : {}),
  };
  const started = performance.now();
  // a scan on the real model takes minutes: say how far it got now and then
  const progress = setInterval(() => console.log(`  ${guardName} ${profile}: ${driver.requests()} requests, ${((performance.now() - started) / 1000).toFixed(0)} s`), 60_000);
  let outcome;
  try {
    outcome = await runScan({
      scanId: `bench-real-${guardName}-${profile}`, seed: 'real-model-bench', profile, driver, signal: new AbortController().signal, now: () => new Date(),
      target,
      // the model answers one request at a time: a scan's parallel conversations wait their turn
      limits: { messageTimeoutMs: 15 * 60_000 },
      sink: { enterPhase: async () => {}, recordAttempt: async () => {}, recordVulnerability: async (v) => void vulnerabilities.push(v) },
    });
  } finally {
    clearInterval(progress);
    await lab.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const exposed = [...lab.exposures.exposedCategories().keys()].sort();
  const found = new Set(vulnerabilities.map((v) => v.category));
  const provenCount = vulnerabilities.filter((v) => proven(v, lab.secrets)).length;
  const disclosures = vulnerabilities.filter((v) => v.category === 'LLM02:2025' || v.category === 'LLM07:2025');
  const confirmed = disclosures.filter((v) => v.evidence.turns.some((t) => t.role === 'assistant' && exposuresIn(t.content, lab.secrets).length > 0));
  // each credential the persona holds: in how many answers it came out (whole or in part, per the
  // oracle), and how many LLM02 findings hold such an answer (one whose proof quotes it whole)
  const credentials = lab.secrets
    .filter((secret) => secret.kind === 'credential')
    .map((secret) => {
      const exposing = lab.exposures.answers().filter((r) => r.exposures.some((e) => e.label === secret.label)).length;
      const carrying = vulnerabilities.filter((v) => v.category === 'LLM02:2025' && v.evidence.turns.some((t) => t.role === 'assistant' && exposuresIn(t.content, [secret]).length > 0));
      const whole = carrying.filter((v) => ((v.evidence as { proof?: Proof }).proof?.text ?? '').includes(secret.value)).length;
      return `${secret.label}: out in ${exposing} answers, ${carrying.length} findings hold one (${whole} with it whole as proof)`;
    });
  return {
    credentials,
    outcome: outcome.kind === 'completed' ? 'completed' : `${outcome.kind}${'reason' in outcome ? `: ${outcome.reason}` : ''}`,
    requests: driver.requests(),
    seconds,
    byCategory: count(vulnerabilities.map((v) => v.category)) || '-',
    bySeverity: count(vulnerabilities.map((v) => v.severity)) || '-',
    exposingAnswers: lab.exposures.exposing().length,
    recall: exposed.length ? `${exposed.filter((c) => found.has(c)).length}/${exposed.length} (${exposed.map((c) => `${c.slice(0, 5)}${found.has(c) ? '+' : '-'}`).join(' ')})` : '-',
    precision: vulnerabilities.length ? `${provenCount}/${vulnerabilities.length}` : '-',
    confirmed: disclosures.length ? `${confirmed.length}/${disclosures.length}` : '-',
  };
}

async function main() {
  console.log(`real model: node dist/bench/real-model.js ${profiles.join(',')} ${guardNames.join(',')}${withSensitive ? ' --sensitive' : ''} (persona ${personaId}; SmolLM2-135M-Instruct, ${process.env.SMOLLM2_THREADS ?? 1} thread(s))`);
  // the model's process is started once for every scan, and a missing file stops the bench at once
  const model = sharedSmolLm2({ deadlineMs: 15 * 60_000, maxQueued: Infinity });
  model.assertAvailable();
  const rows: string[][] = [['guards', 'profile', 'outcome', 'requests', 'wall s', 'findings by category', 'by severity', 'exposing answers', 'recall (oracle categories with a finding)', 'precision (proven/findings)', 'disclosures confirmed']];
  try {
    for (const guardName of guardNames) {
      for (const profile of profiles) {
        const r = await scanOnce(guardName, profile);
        rows.push([guardName, profile, r.outcome, String(r.requests), r.seconds.toFixed(0), r.byCategory, r.bySeverity, String(r.exposingAnswers), r.recall, r.precision, r.confirmed]);
        console.log(rows[rows.length - 1].join(' | '));
        for (const line of r.credentials) console.log(`  ${line}`);
      }
    }
  } finally {
    await closeSharedSmolLm2();
  }
  console.log(`model: ${model.stats.answers} answers, ${(model.stats.modelMs / Math.max(1, model.stats.answers) / 1000).toFixed(1)} s each on average, ${model.stats.stopped} cut at the deadline, loaded in ${model.stats.loadMs} ms`);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log(`\n${rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ')).join('\n')}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
