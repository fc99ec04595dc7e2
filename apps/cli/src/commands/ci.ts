import type { Command } from 'commander';
import { CiScanResult, toJunitXml, toSarif } from '@gauntlet/reports';
import { CliError, CliIo, CLI_VERSION, EXIT } from '../io';
import { describe, request, Service, serviceFrom, Answer } from '../server/client';
import { resolve } from 'node:path';
import type { Profile } from '@gauntlet/domain';
import { findConfigFile, GauntletConfig, loadConfig } from '../config/gauntlet-config';
import { reportFormatOf } from '../scan/report-files';
import { reportFilesFor, targetSpec } from '../scan/scan-plan';
import { CommandContext, runCommand } from './command';
import { downloadReport } from './scans';
import { listAll } from './targets';

/**
 * `gauntlet ci`: starts a scan through the service's CI endpoint, waits for the gate's verdict,
 * and writes JUnit / SARIF for the pipeline. Exit codes: 0 passed, 1 below the threshold (or new
 * findings), 2 anything else (bad arguments, auth, network, failed scan, timeout).
 */
interface CiOptions {
  target: string;
  threshold: number;
  failOn: 'score' | 'new';
  allowPartial: boolean;
  service: Service;
  timeoutMs: number;
  pollMs: number;
  junit?: string;
  sarif?: string;
  profile?: Profile;
}

interface CiFlags {
  config?: string | boolean;
  target?: string;
  failThreshold?: string;
  failOn?: string;
  allowPartial?: boolean;
  url?: string;
  apiKey?: string;
  timeout?: string;
  pollInterval?: string;
  junit?: string;
  sarif?: string;
}

function ciOptions(values: CiFlags, env: CliIo['env']): CiOptions {
  if (!values.target?.trim()) throw new CliError('--target is required');
  const failOn = values.failOn ?? 'score';
  if (failOn !== 'score' && failOn !== 'new') throw new CliError('--fail-on must be score or new');
  const thresholdText = values.failThreshold ?? (failOn === 'new' ? '0' : undefined);
  if (thresholdText === undefined) throw new CliError('--fail-threshold is required (or --fail-on new)');
  if (!/^\d{1,3}$/.test(thresholdText) || Number(thresholdText) > 100) throw new CliError('--fail-threshold must be an integer from 0 to 100');
  const seconds = (name: string, text: string | undefined, fallback: number) => {
    if (text === undefined) return fallback * 1000;
    const n = Number(text);
    if (!Number.isFinite(n) || n <= 0) throw new CliError(`--${name} must be a positive number of seconds`);
    return n * 1000;
  };
  return {
    target: values.target.trim(),
    threshold: Number(thresholdText),
    failOn,
    allowPartial: values.allowPartial ?? false,
    service: serviceFrom(values, env),
    timeoutMs: seconds('timeout', values.timeout, 1800),
    pollMs: seconds('poll-interval', values.pollInterval, 5),
    junit: values.junit,
    sarif: values.sarif,
  };
}

const TRANSIENT = new Set([429, 502, 503]);

async function runCi(opts: CiOptions, io: CliIo): Promise<number> {
  const deadline = io.now() + opts.timeoutMs;
  const gateBody = {
    target_id: opts.target, fail_threshold: opts.threshold, ...(opts.profile && { profile: opts.profile }),
    ...(opts.failOn !== 'score' && { fail_on: opts.failOn }), ...(opts.allowPartial && { allow_partial: true }),
  };
  const started = await request(io, opts.service, 'POST', '/api/ci/scan', gateBody, deadline);
  if (started.status === 401 || started.status === 403) throw new CliError(`the service refused the API key (${describe(started)})`);
  if (started.status < 200 || started.status >= 300 || typeof started.body?.scan_id !== 'string') {
    throw new CliError(`could not start the scan (${describe(started)})`);
  }
  const scanId: string = started.body.scan_id;
  io.stdout(`gauntlet: scan ${scanId} started for target ${opts.target} (${opts.failOn === 'new' ? 'failing on new findings' : `fail threshold ${opts.threshold}`})`);

  let verdict: Answer | undefined;
  let transientFailures = 0;
  let lastStatus = '';
  while (!verdict) {
    if (io.now() >= deadline) throw new CliError(`timed out after ${Math.round(opts.timeoutMs / 1000)} s waiting for scan ${scanId}`);
    let answer: Answer;
    try {
      answer = await request(io, opts.service, 'GET', `/api/ci/scan/${encodeURIComponent(scanId)}`, undefined, deadline);
    } catch (e) {
      // a restart of the service must not fail a long scan: a few consecutive misses are tolerated
      if (++transientFailures > 3) throw e;
      await io.sleep(opts.pollMs);
      continue;
    }
    if (answer.status === 202 || TRANSIENT.has(answer.status)) {
      transientFailures = answer.status === 202 ? 0 : transientFailures + 1;
      if (transientFailures > 3) throw new CliError(`the service keeps answering ${describe(answer)}`);
      const status = String(answer.body?.status ?? 'running');
      if (status !== lastStatus) io.stdout(`gauntlet: scan ${scanId} is ${(lastStatus = status)}`);
      await io.sleep(Math.min(opts.pollMs, Math.max(0, deadline - io.now())));
      continue;
    }
    verdict = answer;
  }

  const b = verdict.body ?? {};
  switch (verdict.status) {
    case 200:
    case 422: {
      const passed = verdict.status === 200;
      // a partial scan's grade is never printed without its mark (the service's label, else a plain one)
      const partial = b.partial ?? b.status === 'completed_partial';
      const graded = (n: unknown, grade: unknown, label: unknown) => (partial ? `${n}, grade ${label ?? `${grade} (partial scan)`}` : `${n} (${grade})`);
      const triaged = b.security_score_after_triage !== undefined && b.security_score_after_triage !== b.security_score ? `; ${graded(b.security_score_after_triage, b.security_grade_after_triage, b.security_grade_after_triage_label)} after triage` : '';
      const score = `score ${graded(b.security_score, b.security_grade, b.security_grade_label)}${triaged}`;
      const since = b.base_scan_id ? `since scan ${b.base_scan_id}` : 'on its first scan';
      const verdictText =
        (b.fail_on ?? opts.failOn) === 'new'
          ? `${score}; ${b.new_findings ?? 0} new finding(s) ${since}: ${passed ? 'PASSED' : 'FAILED, new findings'}`
          : `${score}, fail threshold ${b.fail_threshold ?? opts.threshold}: ${passed ? 'PASSED' : 'FAILED, below threshold'}`;
      io.stdout(`gauntlet: scan ${scanId} ${b.status ?? 'finished'}: ${verdictText}`);
      if (b.report_url) io.stdout(`gauntlet: report ${b.report_url}`);
      if (opts.junit || opts.sarif) await writeResults(io, opts, scanId, b, deadline);
      return passed ? EXIT.passed : EXIT.belowThreshold;
    }
    case 424: {
      const status = b.scan_status ?? b.status ?? 'failed';
      if (status === 'completed_partial') {
        throw new CliError(`scan ${scanId} ended completed_partial${b.reason ? ` (${b.reason})` : ''}: partial results do not pass the gate; pass --allow-partial to gate on what it found`);
      }
      throw new CliError(`scan ${scanId} did not finish: ${status}${b.reason ? ` (${b.reason})` : ''}`);
    }
    case 504:
      throw new CliError(`the service timed out waiting for scan ${scanId}`);
    case 401:
    case 403:
      throw new CliError(`the service refused the API key (${describe(verdict)})`);
    default:
      throw new CliError(`unexpected answer for scan ${scanId} (${describe(verdict)})`);
  }
}

async function writeResults(io: CliIo, opts: CiOptions, scanId: string, gate: any, deadline: number): Promise<void> {
  const detail = await request(io, opts.service, 'GET', `/api/scans/${encodeURIComponent(scanId)}`, undefined, deadline + 30_000);
  if (detail.status !== 200 || !Array.isArray(detail.body?.vulnerabilities)) throw new CliError(`could not read the scan's findings (${describe(detail)})`);
  // the score's per-category figures tell tested from untested categories; JUnit is still useful without them
  const score = await request(io, opts.service, 'GET', `/api/scans/${encodeURIComponent(scanId)}/score`, undefined, deadline + 30_000).catch(() => undefined);
  const d = detail.body;
  // SARIF locates each result at the target's URL: the finding is in the deployed system, not in a file
  const targetId = d.target_id ?? opts.target;
  const target = await request(io, opts.service, 'GET', `/api/targets/${encodeURIComponent(targetId)}`, undefined, deadline + 30_000).catch(() => undefined);
  const result: CiScanResult = {
    id: scanId,
    target_id: d.target_id ?? opts.target,
    target_name: d.target_name ?? null,
    target_url: d.target_url ?? (target?.status === 200 && typeof target.body?.url === 'string' ? target.body.url : null),
    status: d.status ?? gate.status,
    security_score: gate.security_score ?? d.security_score ?? null,
    security_grade: gate.security_grade ?? d.security_grade ?? null,
    fail_threshold: gate.fail_threshold ?? opts.threshold,
    finished_at: d.finished_at ?? null,
    report_url: gate.report_url ?? null,
    vulnerabilities: d.vulnerabilities,
    category_scores: score?.status === 200 ? score.body?.category_scores ?? null : null,
    // a partial scan's grade is never written without its mark
    ...(typeof d.partial === 'boolean' && { partial: d.partial, coverage: d.coverage ?? null }),
    ...(Array.isArray(d.exposures) && { exposures: d.exposures }),
  };
  if (opts.junit) {
    await io.writeFile(opts.junit, toJunitXml(result));
    io.stdout(`gauntlet: wrote JUnit XML to ${opts.junit}`);
  }
  if (opts.sarif) {
    await io.writeFile(opts.sarif, JSON.stringify(toSarif(result, { version: CLI_VERSION, informationUri: opts.service.base }), null, 2) + '\n');
    io.stdout(`gauntlet: wrote SARIF to ${opts.sarif} (${result.vulnerabilities.length} results)`);
  }
}


export function registerCi(program: Command, ctx: CommandContext): void {
  program
    .command('ci')
    .summary('gate a pipeline on a scan run by a Gauntlet service')
    .description(
      'Starts a scan of a registered target through the service and fails the pipeline when its security score (after triage)\n' +
        'is below --fail-threshold, or with --fail-on new when it found anything new since the target\'s previous scan.\n\n' +
        'Exit codes: 0 passed, 1 below threshold or new findings, 2 error (arguments, auth, network, scan failed or partial, timeout).',
    )
    .option('--target <id>', 'target id (UUID), required')
    .option('--fail-threshold <n>', 'lowest passing score, 0..100 (required unless --fail-on new)')
    .option('--fail-on <what>', 'score (default): gate on the threshold; new: fail only on new findings')
    .option('--allow-partial', 'gate a scan that ended completed_partial on what it found (default: exit 2)')
    .option('--url <base>', 'service address (env GAUNTLET_URL, default http://localhost:3000)')
    .option('--api-key <key>', 'API key (prefer env GAUNTLET_API_KEY: arguments show in process lists)')
    .option('--timeout <seconds>', 'give up after this long (default 1800)')
    .option('--poll-interval <seconds>', 'seconds between status checks (default 5)')
    .option('--junit <file>', 'write JUnit XML (one testcase per OWASP category)')
    .option('--sarif <file>', 'write SARIF 2.1.0 (one result per vulnerability)')
    .option('--config [file]', 'gate every target of gauntlet.yaml (default ./gauntlet.yaml): each is found on the service by name, or registered')
    .action((flags: CiFlags) => runCommand(ctx, () => (flags.config ? runCiConfig(flags, ctx.io) : runCi(ciOptions(flags, ctx.io.env), ctx.io))));
}

/**
 * `gauntlet ci --config`: the targets, gate and reports of gauntlet.yaml, against a service. Each
 * target is the account's target of that name (registered from the file when there is none);
 * the exit code is the worst of them.
 */
async function runCiConfig(flags: CiFlags, io: CliIo): Promise<number> {
  const file = typeof flags.config === 'string' ? resolve(io.cwd, flags.config) : findConfigFile(io.cwd);
  if (!file) throw new CliError('no gauntlet.yaml here: pass --config FILE');
  const config: GauntletConfig = loadConfig(file, io.env);
  if (flags.target) throw new CliError('--target and --config do not go together: the config names the targets');
  if (config.fail_on === 'high' && !flags.failOn) throw new CliError(`${file}: fail_on: high is gauntlet scan's gate; the service gates on a score (fail_under) or on new findings (fail_on: new)`);
  const failOn = flags.failOn ?? (config.fail_on === 'new' ? 'new' : undefined);
  const threshold = flags.failThreshold ?? (config.fail_under !== undefined ? String(config.fail_under) : undefined);
  const service = serviceFrom(flags, io.env);
  const existing = await listAll(io, flags, '/api/targets', 'targets');
  const several = config.targets.length > 1;
  let code: number = EXIT.passed;
  for (const t of config.targets) {
    const spec = targetSpec(t);
    let target = existing.find((x) => x.name === spec.name);
    if (!target) {
      const created = await request(io, service, 'POST', '/api/targets', spec);
      if (created.status !== 201) throw new CliError(`target ${spec.name} could not be registered (${describe(created)})`);
      target = created.body;
      io.stdout(`gauntlet: registered target ${spec.name} (${target.id})`);
    }
    const reports = reportFilesFor(config.reports ?? [], spec.name, several).map((f) => ({ file: resolve(io.cwd, f), format: reportFormatOf(f) }));
    const opts = ciOptions(
      { ...flags, target: target.id, failOn, failThreshold: threshold, allowPartial: flags.allowPartial ?? config.allow_partial,
        sarif: flags.sarif ?? reports.find((r) => r.format === 'sarif')?.file, junit: flags.junit ?? reports.find((r) => r.format === 'junit')?.file },
      io.env,
    );
    let result: number;
    try {
      result = await runCi({ ...opts, profile: t.profile ?? config.profile }, io);
    } catch (e) {
      if (!(e instanceof CliError)) throw e;
      io.stderr(`gauntlet: error: ${spec.name}: ${e.message}`);
      code = Math.max(code, EXIT.error);
      continue;
    }
    code = Math.max(code, result);
    // the service's own report formats, downloaded once the scan has ended
    const scans = await listAll(io, flags, `/api/scans?target_id=${target.id}`, 'scans', 1);
    for (const r of reports.filter((x) => x.format !== 'sarif' && x.format !== 'junit')) {
      await io.writeFile(r.file, await downloadReport(io, flags, scans[0].id, r.format));
      io.stdout(`gauntlet: wrote ${r.file}`);
    }
  }
  if (several) io.stdout(`gauntlet: ${config.targets.length} targets, exit code ${code}`);
  return code;
}
