import { diagnose, Turn, Vulnerability } from '@gauntlet/domain';
import { TargetProtocolError, TargetUnavailableError } from '../chat-driver';
import { readRefusal } from '../detectors/refusal';
import { targetEndpoint } from '../drivers/create-chat-driver';
import { plantsCallbacks } from '../callbacks/planting';
import { adaptiveAttack } from './adaptive-attack';
import { Escalation, ProbeResult } from './escalation';
import { AmplifyTask, planAmplification } from './plan';
import { ScanRun } from './scan-run';
import { ScanOutcome, ScanTarget } from './types';
import { BudgetReached } from '../budget/meter';

/**
 * The phases of a scan, in order, each a step over the scan's parts (ScanRun): recon, probe,
 * amplify, analyze, report. Each answers whether the scan goes on; runScan strings them together.
 */

/** What recon learnt: the target answers (and whether it refused even a greeting), or the scan ends here. */
export type Recon = { kind: 'answered'; refused: boolean } | { kind: 'failed'; reason: string } | { kind: 'interrupted' } | { kind: 'at_budget' };

/**
 * Why a scan whose target never answered failed, said where people look (the status view, the
 * dashboard, the scan.failed webhook): the connection check's diagnosis and hint, then the
 * driver's own words.
 */
function firstMessageFailed(target: ScanTarget, e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const failure = e instanceof TargetUnavailableError || e instanceof TargetProtocolError ? (e.failure ?? null) : null;
  const subject = { scan_mode: target.scan_mode, api_format: target.api_format, url: target.url, endpoint: targetEndpoint(target), has_api_key: target.api_key !== null };
  const { diagnosis, hint } = diagnose(subject, { kind: 'failed', failure, message }, 0);
  return `The target did not answer the first message. ${diagnosis}${hint ? ` ${hint}` : ''} (${message.slice(0, 300)})`;
}

/** recon: a harmless first message; no answer means there is nothing to scan */
export async function recon(scan: ScanRun): Promise<Recon> {
  const { recorder, input } = scan;
  await recorder.enter('recon');
  if (recorder.error) throw recorder.error;
  let greeting: string | null;
  try {
    greeting = await scan.attempts.recon();
  } catch (e) {
    if (input.signal.aborted) return { kind: 'interrupted' };
    if (recorder.error) throw recorder.error;
    if (e instanceof BudgetReached) {
      scan.health.atBudget(e.limit);
      scan.cutAtBudget(scan.probes.map((p) => p.category));
      return { kind: 'at_budget' };
    }
    return { kind: 'failed', reason: firstMessageFailed(input.target, e) };
  }
  if (greeting === null) return { kind: 'failed', reason: 'target answered the first message with nothing' };
  // a target that refuses even a greeting is likely gated on the depth of the conversation
  return { kind: 'answered', refused: readRefusal(greeting).refused };
}

/** probe: the catalogue, a few conversations at a time; what each probe got, in the catalogue's order */
export async function probe(scan: ScanRun): Promise<ProbeResult[]> {
  await scan.recorder.enter('probe');
  const results: ProbeResult[] = [];
  await scan.inParallel(scan.probes, async (probe) => {
    const verdict = await scan.attempts.attempt(probe, 'probe', []);
    if (verdict) results.push({ probe, verdict });
  });
  const order = new Map(scan.probes.map((p, i) => [p.id, i]));
  const judged = new Set(results.map((r) => r.probe.id));
  scan.cutAtBudget(scan.probes.filter((p) => !judged.has(p.id)).map((p) => p.category));
  return results.sort((a, b) => order.get(a.probe.id)! - order.get(b.probe.id)!);
}

/**
 * amplify: escalation in every category that resisted (each category's next attempt as soon as
 * its last is judged, learning what gets through), an attacker model on what still resists when one is configured, then converter chains
 * on what worked. False when the scan was interrupted on the way.
 */
export async function amplify(scan: ScanRun, probed: readonly ProbeResult[], reconRefused: boolean): Promise<boolean> {
  const { recorder, plan, attempts, input } = scan;
  await recorder.enter('amplify');
  // a probe proven by a request to its planted address is heard, not escalated: its words prove nothing
  const results = probed.filter((r) => !plantsCallbacks(r.probe));
  const escalation = new Escalation(results, {
    budget: plan.escalationBudget, seed: input.seed, stackAfter: plan.stackAfter, leadsPerCategory: plan.leadsPerCategory, reconRefused,
  });
  // each category's next attempt leaves as soon as its last is judged; when fewer categories resist
  // than the target takes conversations, more than one of a category goes at once
  const perCategory = () => Math.ceil(scan.width() / Math.max(1, escalation.resisting.length));
  await scan.inParallel(
    () => escalation.next(perCategory()),
    async (a) => {
      const verdict = await attempts.attempt(a.probe, 'amplify', a.tactic.chain, a.cost);
      escalation.record(a, verdict);
      if (verdict) results.push({ probe: a.probe, verdict });
    },
  );
  if (scan.interrupted) return false;
  // at the budget, the categories still resisting were still being attacked: they are not finished
  if (scan.health.budgetReached) {
    scan.cutAtBudget(escalation.resisting);
    return true;
  }
  if (input.attacker && plan.attackerRounds > 0) {
    const attacker = { attacker: input.attacker, attempts, health: scan.health, stop: scan.stop.signal };
    const leads = escalation.leadsStillResisting;
    await scan.inParallel(leads, (probe) => adaptiveAttack(probe, plan.attackerRounds, attacker));
    if (scan.interrupted) return false;
    if (scan.health.budgetReached) {
      scan.cutAtBudget(leads.map((p) => p.category));
      return true;
    }
  }
  // finish half-successes, widen to other probes, collect variants. What is left is known now:
  // the bar's rest stands for it (the unspent budget is not a jump)
  const tasks = planAmplification(results, plan, input.seed, escalation.winning, (probe, chainId) => attempts.wasSent(probe, chainId));
  recorder.replan(tasks.reduce((sum, t) => sum + t.cost, 0) + 2);
  const done = new Set<AmplifyTask>();
  await scan.inParallel(tasks, async (t) => {
    if ((await attempts.attempt(t.probe, 'amplify', t.chain, t.cost)) !== null) done.add(t);
  });
  scan.cutAtBudget(tasks.filter((t) => !done.has(t)).map((t) => t.probe.category));
  return !scan.interrupted;
}

/**
 * analyze: one finding per weakness, its strongest evidence and every other way in as variants;
 * `proven` are findings proven by what the target did (out-of-band requests), written first, so a
 * weakness both did and said is shown by the deed. False when interrupted.
 */
export async function analyze(scan: ScanRun, proven: readonly Vulnerability[] = []): Promise<boolean> {
  const { recorder, book, input } = scan;
  recorder.replan(2);
  await recorder.enter('analyze');
  for (const v of [...proven, ...book.vulnerabilities(input.scanId)]) {
    if (input.signal.aborted) return false;
    await recorder.recordVulnerability(v);
  }
  recorder.advance();
  return true;
}

/** report: every write gone out, the outcome said */
export async function report(scan: ScanRun): Promise<ScanOutcome> {
  await scan.recorder.enter('report');
  await scan.recorder.flushed();
  if (scan.input.signal.aborted) return { kind: 'cancelled' };
  const reason = scan.health.unavailable;
  if (reason) return { kind: 'completed_partial', reason };
  const limit = scan.health.budgetReached;
  if (limit) {
    const { phases, categories } = scan.unfinished;
    return { kind: 'stopped_at_budget', unfinished: { limit, phases: [...phases], categories: [...categories].sort() } };
  }
  return { kind: 'completed' };
}

/**
 * A scan stopped midway (Ctrl-C, a scanner shutting down) ends with what it found so far, its
 * findings recorded; a scan cancelled meanwhile refuses these writes, which is fine: it keeps nothing.
 */
export async function finishEarly(scan: ScanRun): Promise<ScanOutcome> {
  const { recorder, book, input } = scan;
  await recorder.flushed().catch(() => undefined);
  if (recorder.error) throw recorder.error;
  try {
    for (const v of book.vulnerabilities(input.scanId)) await recorder.recordVulnerability(v);
  } catch {
    /* refused: the scan has ended already */
  }
  return { kind: 'cancelled' };
}
