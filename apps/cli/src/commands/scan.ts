import { Command, Option } from 'commander';
import { resolve } from 'node:path';
import { isIP } from 'node:net';
import { BUDGET_FIELD_NAMES, BUDGET_FIELDS, callbackDomainProblem, isTerminal, PROFILES, spentBesidePlan, toolsFlags } from '@gauntlet/domain';
import type { ScanDoc } from '@gauntlet/read-models';
import { configPosition, findConfigFile, GauntletConfig, loadConfig } from '../config/gauntlet-config';
import { CliError, CliIo, EXIT } from '../io';
import { defaultDataDir } from '../scan/data-dir';
import type { CallbackListening, LocalService, TargetSpec } from '../scan/local-service';
import { actLines } from '../scan/acts';
import { renderReportFile, REPORT_FILE_EXTENSIONS, reportFormatOf } from '../scan/report-files';
import { PlannedScan, planScans, ScanFlags, ScanPlan } from '../scan/scan-plan';
import { gateLine, scanVerdict, servicePolicy } from '../scan/verdict';
import { configField, flagOf, inCliWords } from '../terminal/cli-words';
import { clock, plainLineKey, progressLine } from '../terminal/progress';
import { planLines, spentLines } from '../terminal/plan-lines';
import { table } from '../terminal/table';
import { collect, CommandContext, runCommand, targetOptions } from './command';

const VERDICT_EXIT = { passed: EXIT.passed, failed: EXIT.belowThreshold, not_scored: EXIT.error, partial_refused: EXIT.error } as const;

/** Ctrl-C, once: the scan in progress stops and keeps what it found; the targets after it are not scanned. */
class Interruption {
  requested = false;
  reason = '';
  request(reason: string) {
    this.requested = true;
    this.reason = reason;
  }
}

async function scanOne(service: LocalService, planned: PlannedScan, plan: ScanPlan, io: CliIo, stop: Interruption, timeoutMs: number | null): Promise<number> {
  const target = await service.upsertTarget(await withLocalTools(planned.target));
  const scanId = await service.requestScan(target._id, planned.profile, { threshold: plan.gate.failUnder, policy: servicePolicy(plan.gate) }, plan.selection, planned.budget);
  const chosen = [...(plan.selection?.categories ?? []), ...(plan.selection?.probes ?? [])];
  const only = `${chosen.length ? `, only ${chosen.join(', ')}` : ''}${plan.selection?.custom?.length ? `, ${plan.selection.custom.length} custom probe(s)` : ''}`;
  io.stdout(`gauntlet: scanning ${target.name} (${target.url}), ${planned.profile} profile${only}, scan ${scanId}`);
  const started = io.now();
  let lastKey = '';
  let stopping = false;
  let doc: ScanDoc;
  for (;;) {
    doc = await service.scan(scanId);
    const elapsed = io.now() - started;
    if (io.isTty) io.status(progressLine(doc, elapsed));
    else if (plainLineKey(doc) !== lastKey) {
      lastKey = plainLineKey(doc);
      io.stdout(`gauntlet: ${progressLine(doc, elapsed)}`);
    }
    if (isTerminal(doc.status)) break;
    if (!stopping && timeoutMs !== null && elapsed > timeoutMs) stop.request(`--timeout: ${Math.round(timeoutMs / 1000)} s passed`);
    if (!stopping && stop.requested) {
      stopping = true;
      if (io.isTty) io.stdout('');
      io.stdout(`gauntlet: stopping (${stop.reason}); keeping what was found`);
      await service.stopScanning();
      doc = await service.ended(scanId, 10_000);
      // stopped before a scanner took it: nothing ran, nothing to keep
      if (!isTerminal(doc.status)) await service.cancel(scanId);
      doc = await service.ended(scanId, 10_000);
      break;
    }
    await io.sleep(io.isTty ? 250 : 500);
  }
  if (io.isTty && !stopping) io.stdout('');
  return finish(service, doc, planned, plan, io, io.now() - started);
}

async function finish(service: LocalService, doc: ScanDoc, planned: PlannedScan, plan: ScanPlan, io: CliIo, elapsedMs: number): Promise<number> {
  const out = (line: string) => io.stdout(line);
  // what it spent, beside its plan: said whatever the scan came to
  const spent = doc.spending ? spentLines(spentBesidePlan(doc.spending, doc.plan, doc.budget), doc.unfinished) : [];
  if (!doc.score) {
    out(`gauntlet: the scan ended ${doc.status}${doc.reason ? `: ${inCliWords(doc.reason)}` : ''} (after ${clock(elapsedMs)})`);
    for (const line of spent) out(line);
    return EXIT.error;
  }
  const report = await service.report(doc);
  const facts = await service.gateFacts(doc);
  const partial = doc.status === 'completed_partial';
  const after = facts.score_after_triage && facts.score_after_triage.overall_score !== doc.score.overall_score ? `, ${facts.score_after_triage.overall_score} after triage` : '';
  out('');
  out(`Grade ${doc.score.grade} (${doc.score.overall_score}/100${after})${partial ? ` PARTIAL: ${doc.reason ?? 'the scan was cut short'}` : ''}  ${target(report)}`);
  const counts = (['critical', 'high', 'medium', 'low'] as const).map((s) => `${doc.severity_counts[s]} ${s}`).join(', ');
  out(`${report.vulnerabilities.length} finding(s): ${counts}; ${report.attempts.run} probe attempts in ${clock(elapsedMs)}`);
  if (report.vulnerabilities.length) {
    out('');
    for (const line of table(
      ['severity', 'category', 'title', 'how it got through'],
      report.vulnerabilities.map((v) => [v.severity, v.category, `${v.title}${v.change === 'new' && facts.base_scan_id ? ' (new)' : ''}${v.triage && v.triage.state !== 'open' ? ` [${v.triage.state}]` : ''}`, v.how]),
    )) out(line);
    const acts = actLines(report.vulnerabilities);
    if (acts.length) out('');
    for (const line of acts) out(line);
  }
  out('');
  for (const line of spent) out(line);
  for (const file of planned.reports) {
    const path = resolve(io.cwd, file);
    await io.writeFile(path, await renderReportFile(reportFormatOf(file), report, plan.gate.failUnder));
    out(`report: ${path}${partial ? ' (partial)' : ''}`);
  }
  out(`history: gauntlet serve${plan.dataDir ? ` --data-dir ${service.dataDir}` : ''}, then sign in as ${service.account.email} (password in ${resolve(service.dataDir, service.accountFile)}); scan ${doc._id} at ${service.scanUrl(doc._id)}`);

  const verdict = scanVerdict(facts, plan.gate);
  const line = gateLine(verdict, facts, plan.gate);
  if (verdict === 'partial_refused') out(`gauntlet: the scan is partial (${doc.reason ?? 'cut short'}): it does not pass a gate; --allow-partial gates on what it found`);
  else if (line) out(`gauntlet: ${line}`);
  return VERDICT_EXIT[verdict];
}

/** `host:port`, `[v6]:port`, or (when a default host is given) a bare port */
function hostPort(text: string, flag: string, defaultHost?: string): { host: string; port: number } {
  const m = /^(?:(?:\[([^\]]+)\]|([^:]+)):)?(\d{1,5})$/.exec(text.trim());
  if (!m || Number(m[3]) > 65535 || (!defaultHost && !m[1] && !m[2])) throw new CliError(`${flag} must be host:port, e.g. ${defaultHost ? '127.0.0.1:5353 or 5353' : '0.0.0.0:8787'}`);
  return { host: m[1] ?? m[2] ?? defaultHost!, port: Number(m[3]) };
}

/** the callback listener as the flags and the environment ask for it */
function callbackOptions(flags: ScanFlags, env: Record<string, string | undefined>): CallbackListening {
  let host = '127.0.0.1';
  let port = 0;
  if (flags.callbackListen) ({ host, port } = hostPort(flags.callbackListen, '--callback-listen'));
  const url = flags.callbackUrl ?? env.CALLBACK_BASE_URL;
  if (url !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new CliError('--callback-url must be an http or https URL');
    }
    if (!['http:', 'https:'].includes(parsed.protocol) || parsed.search || parsed.hash) throw new CliError('--callback-url must be an http or https URL without a query');
  }
  const domain = (flags.callbackDomain ?? env.CALLBACK_DOMAIN)?.trim().toLowerCase().replace(/\.$/, '') || undefined;
  const problem = domain && callbackDomainProblem(domain);
  if (problem) throw new CliError(`--callback-domain ${problem}`);
  const dnsAt = flags.callbackDns ?? env.CALLBACK_DNS_PORT;
  const dns = dnsAt ? hostPort(dnsAt, '--callback-dns', '127.0.0.1') : undefined;
  if (dns && !domain) throw new CliError('--callback-dns needs --callback-domain: the DNS listener answers only for names under it');
  // a planted name resolves where the HTTP listener is: CALLBACK_DNS_ANSWER, else the address it listens on when that is one
  const answers = (env.CALLBACK_DNS_ANSWER ?? (isIP(host) && host !== '0.0.0.0' && host !== '::' ? host : '')).split(',').map((a) => a.trim()).filter(Boolean);
  if (answers.some((a) => !isIP(a))) throw new CliError('CALLBACK_DNS_ANSWER must be IPv4 or IPv6 addresses, comma-separated');
  return { ...(url && { url }), host, port, ...(domain && { domain }), ...(dns && { dns: { ...dns, answers } }) };
}

const target = (r: { target: { name: string | null; url: string | null } }) => `${r.target.name ?? ''}${r.target.url && r.target.url !== r.target.name ? ` <${r.target.url}>` : ''}`;

async function checkTargets(plan: ScanPlan, configFile: string | null): Promise<void> {
  const { targetProblems } = await import('../scan/local-service');
  const lines: string[] = [];
  for (const [i, planned] of plan.scans.entries()) {
    const problem = (await targetProblems(planned.target))[0];
    if (!problem) continue;
    if (configFile) {
      const field = configField(problem.field);
      const at = configPosition(configFile, ['targets', i, ...field.split('.')]);
      lines.push(`${at}: targets[${i}]${problem.named ? ': ' : `.${field} `}${inCliWords(problem.message, 'config')}`);
    } else {
      // a domain rule's message names its own fields; the DTO's starts after the field's name
      lines.push(problem.named ? inCliWords(problem.message) : `${flagOf(problem.field)} ${inCliWords(problem.message)}`);
    }
  }
  if (lines.length) throw new CliError(lines.join('\n'));
}

async function runScan(url: string | undefined, flags: ScanFlags, io: CliIo): Promise<number> {
  let config: GauntletConfig | null = null;
  let configFile: string | null = null;
  if (url === undefined || flags.config) {
    configFile = flags.config ? resolve(io.cwd, flags.config) : findConfigFile(io.cwd);
    if (configFile) config = loadConfig(configFile, io.env);
  }
  const plan = planScans(url, flags, config, io.env);
  // every target checked against the service's rules before the first request: a mistake in the
  // last target of gauntlet.yaml is found now, with its line, not after the others' scans
  await checkTargets(plan, url === undefined ? configFile : null);
  if (flags.json && !flags.plan) throw new CliError('--json goes with --plan (a scan writes its reports with --report)');
  if (flags.measurePace && !flags.plan) throw new CliError('--measure-pace goes with --plan (a scan measures its target as it runs)');
  if (flags.plan) return printPlans(plan, flags, io);
  const timeoutMs = flags.timeout === undefined ? null : Number(flags.timeout) * 1000;
  if (timeoutMs !== null && !(timeoutMs > 0)) throw new CliError('--timeout must be a positive number of seconds');
  const dataDir = resolve(io.cwd, plan.dataDir ?? defaultDataDir(io.env));
  const stop = new Interruption();
  let interrupts = 0;
  const removeHandler = io.onInterrupt(() => {
    if (++interrupts > 1) io.stderr('gauntlet: still stopping; writing what was found');
    stop.request('interrupted');
  });
  let service: LocalService | null = null;
  try {
    // the service's whole composition loads only when a scan runs: --help and argument errors stay instant
    const { LocalService } = await import('../scan/local-service');
    service = await LocalService.open({ dataDir, allowPrivate: flags.private !== false, env: io.env, callback: callbackOptions(flags, io.env) });
    io.stdout(`gauntlet: listening for callbacks at ${service.callbackBaseUrl}${service.callbackListening !== service.callbackBaseUrl ? ` (on ${service.callbackListening})` : ''}`);
    if (service.callbackDomain) io.stdout(`gauntlet: planting e-mail domains under ${service.callbackDomain}${service.callbackDnsListening ? ` (DNS answered on udp ${service.callbackDnsListening})` : ''}`);
    let code: number = EXIT.passed;
    for (const planned of plan.scans) {
      if (stop.requested) {
        io.stdout(`gauntlet: not scanned (stopped): ${planned.target.name}`);
        code = Math.max(code, EXIT.error);
        continue;
      }
      code = Math.max(code, await scanOne(service, planned, plan, io, stop, timeoutMs));
    }
    if (plan.scans.length > 1) io.stdout(`gauntlet: ${plan.scans.length} targets, exit code ${code}`);
    return code;
  } finally {
    await service?.close();
    removeHandler();
  }
}

/**
 * `--plan`: each target's plan, printed without scanning: nothing is sent to the target unless
 * --measure-pace asks for one request to measure its pace. --json writes one JSON object a target
 * (one line each).
 */
async function printPlans(plan: ScanPlan, flags: ScanFlags, io: CliIo): Promise<number> {
  const dataDir = resolve(io.cwd, plan.dataDir ?? defaultDataDir(io.env));
  const { LocalService } = await import('../scan/local-service');
  const service = await LocalService.open({ dataDir, allowPrivate: flags.private !== false, env: io.env, planOnly: true });
  try {
    for (const planned of plan.scans) {
      const pace = flags.measurePace ? await measured(planned, flags, io) : null;
      const scanPlan = await service.plan(planned.target, { profile: planned.profile, selection: plan.selection, budget: planned.budget, pace });
      if (flags.json) {
        io.stdout(JSON.stringify({ target: { name: planned.target.name, url: planned.target.url }, ...scanPlan }));
        continue;
      }
      io.stdout(`gauntlet: the plan of a ${planned.profile} scan of ${planned.target.name} (${planned.target.url}); nothing was scanned`);
      for (const line of planLines(scanPlan)) io.stdout(`  ${line}`);
    }
    return EXIT.passed;
  } finally {
    await service.close();
  }
}

/** the target's pace, measured with one request (null, said, when it did not answer) */
async function measured(planned: PlannedScan, flags: ScanFlags, io: CliIo) {
  const { measurePace } = await import('@gauntlet/scanner');
  const t = planned.target;
  const target = {
    scan_mode: t.scan_mode, api_format: t.api_format ?? null, url: t.url, api_key: t.api_key ?? null, model: t.model ?? null, http: t.http ?? null, browser: t.browser ?? null,
    max_requests_per_second: t.max_requests_per_second ?? null,
    // the command line's headers are a map; the registration body's type also takes pairs
    headers: t.headers ? (Array.isArray(t.headers) ? Object.fromEntries(t.headers) : (t.headers as Record<string, string>)) : null,
  };
  try {
    return await measurePace(target, planned.profile, { allowPrivate: flags.private !== false, timeoutMs: 60_000, chromiumPath: io.env.CHROMIUM_PATH ?? null });
  } catch (e) {
    io.stderr(`gauntlet: --measure-pace: ${t.name} did not answer its one request (${inCliWords(e instanceof Error ? e.message : String(e))}); the plan assumes a pace`);
    return null;
  }
}

export function registerScan(program: Command, ctx: CommandContext): void {
  const scan = program
    .command('scan')
    .summary('scan a model API or chat page here, no server needed')
    .description(
      'Runs a whole scan in this process: the same engine, store and reports as the service, kept in a data folder that\n' +
        '`DATA_DIR=<folder> npm start` can serve afterwards. Without a url, scans every target of ./gauntlet.yaml (or --config).\n' +
        'Loopback and private addresses are allowed (this runs as you, on your machine); --no-private refuses them.\n\n' +
        'Examples:\n' +
        '  gauntlet scan http://localhost:11434 --format ollama --model llama3.2 --profile quick\n' +
        '  gauntlet scan https://api.openai.com/v1 --model gpt-4o-mini --api-key-env OPENAI_API_KEY --report gauntlet.html\n' +
        '  gauntlet scan https://support.example.com/chat --browser --fail-under 70 --report gauntlet.sarif\n' +
        '  gauntlet scan                      # the targets of ./gauntlet.yaml\n\n' +
        'Exit codes: 0 passed, 1 the gate failed (--fail-under, --fail-on), 2 error (the scan failed, was stopped or cut short without --allow-partial).',
    )
    .argument('[url]', 'the API base URL an SDK takes (https://host/v1) or its full endpoint; with --browser, the chat page');
  targetOptions(scan)
    .addOption(new Option('--profile <profile>', 'quick: one pass, little escalation; standard: escalates what resists; deep: the most requests').choices([...PROFILES]))
    .option('--categories <ids>', 'only these OWASP LLM Top 10 categories, comma-separated: LLM01,LLM07')
    .option('--probes <ids>', 'only these probes, comma-separated (ids from docs/scanning.md), even beyond the profile\'s')
    .option('--name <name>', 'the target\'s name; scans of one name share a history (default: the url)')
    .option('--report <file>', `write a report, the format from the extension: ${REPORT_FILE_EXTENSIONS.join(' ')} (repeatable)`, collect)
    .option('--fail-under <n>', 'exit 1 when the score (after triage) is below n, 0..100')
    .option('--fail-on <what>', 'new: exit 1 on findings new since the target\'s previous scan; high: on any high or critical finding')
    .option('--allow-partial', 'gate a scan cut short on what it found (default: exit 2)')
    .option('--data-dir <dir>', 'where scans are kept (default: $GAUNTLET_DATA_DIR, else the per-user data folder)')
    .option('--config <file>', 'the config file (default: ./gauntlet.yaml, .yml or .json)')
    .option('--no-private', 'refuse loopback and private addresses, as the service does by default')
    .option('--timeout <seconds>', 'stop the scan after this long, keeping what it found')
    .option('--plan', 'print each scan\'s plan (requests per phase, tokens, time, cost) and scan nothing')
    .option('--json', 'with --plan: the plan as one JSON object a target, one a line')
    .option('--measure-pace', 'with --plan: measure the target\'s pace with one request (else its told or last known pace, or an assumption)')
    .option('--callback-url <url>', 'the public address of the callback listener when the target is remote (a tunnel or proxy to --callback-listen); default $CALLBACK_BASE_URL, else the loopback listener')
    .option('--callback-listen <host:port>', 'where the callback listener listens (default 127.0.0.1 on a free port)')
    .option('--callback-domain <domain>', 'a domain whose names reach the listener (wildcard DNS to it, or delegated to --callback-dns): probes plant e-mail domains under it; default $CALLBACK_DOMAIN')
    .option('--callback-dns <[host:]port>', 'answer DNS (UDP) for --callback-domain here, each lookup of a planted name a hit (host 127.0.0.1 unless given); default $CALLBACK_DNS_PORT, else none')
    .action((url: string | undefined, flags: ScanFlags) => runCommand(ctx, () => runScan(url, flags, ctx.io)));
  // the tools options, as the setting's owner describes them (its forms' flags)
  for (const f of toolsFlags()) scan.option(f.option, f.help);
  // the budget's options, as their owner describes them (BUDGET_FIELDS)
  for (const field of BUDGET_FIELD_NAMES) scan.option(`${BUDGET_FIELDS[field].flag} ${BUDGET_FIELDS[field].argument}`, BUDGET_FIELDS[field].description);
}

/**
 * A local MCP server (`--mcp-command`, or `tools: {mcp: {command}}`) is run and listed here, in the
 * user's own process, and its tools registered as the target's definitions: the service never
 * runs a command. Nothing is called on it.
 */
async function withLocalTools(spec: TargetSpec): Promise<TargetSpec> {
  const tools = spec.tools as { mcp?: { command?: string; args?: string[] } } | undefined;
  const command = tools?.mcp?.command;
  if (!command) return spec;
  try {
    // loaded only when asked for: the MCP client is not part of every CLI start
    const { listMcpTools } = await import('@gauntlet/scanner');
    const listed = await listMcpTools({ mcp: { command, args: tools!.mcp!.args ?? [] } }, { allowPrivate: true, timeoutMs: 20_000 });
    if (!listed.tools.length) throw new Error(listed.leftOut ? `it lists no tool that can be offered (${listed.leftOut})` : 'it lists no tools');
    return { ...spec, tools: listed.tools };
  } catch (e) {
    throw new CliError(`--mcp-command ${command}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
