import { hearCallbacks, ownMessageNote } from '../callbacks/hearing';
import { resolveAgentTools } from './agent-tools';
import { amplify, analyze, finishEarly, probe, recon, report } from './phases';
import { ScanRun } from './scan-run';
import { RunScanInput, ScanOutcome } from './types';

export { stableId } from '../ids';

/**
 * Runs one scan: recon (does the target answer?), probe (the catalogue), amplify (escalation in
 * every category that resisted, then converter chains on what worked), analyze (one finding per
 * weakness, its strongest evidence and its variants), report. Everything it tries goes to the
 * sink as it happens. This is the order of the phases (phases.ts); the scan's parts each live
 * apart (ScanRun): the attempts (Attempts), the target's health (TargetHealth), the adaptive
 * attacker (Escalation, adaptiveAttack), the plan (plan.ts), the conversations and their waits,
 * the findings (FindingBook) and the sink's writes and progress (ScanRecorder).
 */
export async function runScan(input: RunScanInput): Promise<ScanOutcome> {
  // the agent's tools are resolved once (an MCP server is listed once), before the plan is made
  const agent = await resolveAgentTools(input);
  const scan = new ScanRun(input, agent.tools);
  try {
    // the plan, before the first request: what the scan's requests, tokens and progress are counted against
    await scan.recorder.plan(scan.requestPlan);
    const reached = await recon(scan);
    if (reached.kind === 'failed') return { kind: 'failed', reason: reached.reason };
    if (reached.kind === 'interrupted') return await finishEarly(scan);
    if (reached.kind === 'at_budget') return await report(scan);
    if (agent.note) await scan.note(agent.tools.length ? 'tools-left-out' : 'tools-unread', agent.note);
    const results = await probe(scan);
    if (scan.interrupted) return await finishEarly(scan);
    // a target given up on (or the budget reached) during the probe phase is not attacked harder: its findings are analysed as they are
    if (!scan.health.unavailable && !scan.health.budgetReached && !(await amplify(scan, results, reached.refused))) return await finishEarly(scan);
    // what the target did out of band: requests to the addresses its attempts planted
    const heard = await hearCallbacks(scan.callbacks, input.scanId, input.target, scan.stop.signal);
    const rendered = ownMessageNote(heard.ownMessage);
    if (rendered) await scan.note('page-renders-user-input', rendered);
    if (!(await analyze(scan, heard.sightings))) return await finishEarly(scan);
    return await report(scan);
  } catch (e) {
    if (scan.recorder.error) throw scan.recorder.error;
    if (input.signal.aborted) return { kind: 'cancelled' };
    throw e;
  } finally {
    scan.close();
  }
}
