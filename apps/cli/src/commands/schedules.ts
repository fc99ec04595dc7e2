import { Command, InvalidArgumentError, Option } from 'commander';
import { BUDGET_FIELD_NAMES, BUDGET_FIELDS, budgetValueFromText, PROFILES } from '@gauntlet/domain';
import { budgetFlagKey } from '../scan/scan-plan';

/**
 * `gauntlet schedules ...`: the schedules of the account the API key belongs to, against a
 * server (GAUNTLET_URL, GAUNTLET_API_KEY). Every request has a deadline; errors print the
 * service's problem detail and exit 2.
 */

export interface SchedulesIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  env: Record<string, string | undefined>;
  fetch: typeof fetch;
}

const defaultIo: SchedulesIo = {
  stdout: (l) => process.stdout.write(l + '\n'),
  stderr: (l) => process.stderr.write(l + '\n'),
  env: process.env,
  fetch: (...args) => fetch(...args),
};

const REQUEST_TIMEOUT_MS = 30_000;
const EXIT_ERROR = 2;

class ScheduleClientError extends Error {}

interface Connection {
  url?: string;
  apiKey?: string;
}

/** the few calls the command makes, with its own deadline and problem+json reading */
export class SchedulesClient {
  private readonly base: string;
  private readonly apiKey: string;

  constructor(connection: Connection, private readonly io: SchedulesIo) {
    const base = (connection.url ?? io.env.GAUNTLET_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
    try {
      const u = new URL(base);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
    } catch {
      throw new ScheduleClientError(`--url is not an http(s) address: ${base}`);
    }
    const apiKey = connection.apiKey ?? io.env.GAUNTLET_API_KEY;
    if (!apiKey) throw new ScheduleClientError('an API key is required: set GAUNTLET_API_KEY or pass --api-key');
    this.base = base;
    this.apiKey = apiKey;
  }

  async call(method: string, path: string, body?: unknown): Promise<any> {
    let res: Response;
    try {
      res = await this.io.fetch(this.base + path, {
        method,
        headers: { 'x-api-key': this.apiKey, accept: 'application/json', ...(body !== undefined && { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (err) {
      throw new ScheduleClientError(`cannot reach ${this.base}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const text = await res.text();
    const json = text ? safeJson(text) : null;
    if (!res.ok) {
      const fields = Array.isArray(json?.errors) ? ` (${json.errors.map((e: { field?: string; message?: string }) => `${e.field}: ${e.message}`).join('; ')})` : '';
      throw new ScheduleClientError(`${res.status} ${json?.detail ?? json?.title ?? res.statusText}${fields}`);
    }
    return json;
  }
}

const safeJson = (text: string) => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

const cronArg = (v: string) => {
  if (v.trim().split(/\s+/).length !== 5) throw new InvalidArgumentError('a cron expression has five fields: minute hour day-of-month month day-of-week');
  return v.trim();
};

/** the budget's options on a command, as their owner describes and checks them (--max-requests, ... --price-out) */
function withBudgetOptions(command: Command): Command {
  for (const field of BUDGET_FIELD_NAMES) {
    const spec = BUDGET_FIELDS[field];
    command.addOption(new Option(`${spec.flag} ${spec.argument}`, `each scan's ${spec.description}`).argParser((v: string) => {
      const read = budgetValueFromText(field, v);
      if ('problem' in read) throw new InvalidArgumentError(read.problem);
      return read.value;
    }));
  }
  return command;
}

/** the budget fields given on the command line, as the api takes them */
const budgetBody = (o: Record<string, unknown>) => Object.fromEntries(BUDGET_FIELD_NAMES.map((f) => [f, o[budgetFlagKey(f)]]).filter(([, v]) => v !== undefined));

/** one line per schedule, for people; --json prints what the api answered */
function describe(s: any): string {
  const what = s.target_id ? `target ${s.target_id}` : `tag ${s.tag}`;
  const onDeploy = s.trigger === 'deploy';
  const state = s.paused ? 'paused' : onDeploy ? 'active' : `next ${s.next_run_at ?? '-'}`;
  const deploy = s.last_firing?.deploy ? ` deploy ${s.last_firing.deploy.deploy_id}` : '';
  const last = s.last_firing ? `, last ${s.last_firing.due_at}${deploy} (${s.last_firing.scans.length} scan(s), ${s.last_firing.skipped.length} skipped)` : '';
  const when = onDeploy ? 'after each deploy' : `"${s.cron}" ${s.timezone}  catch-up ${s.catch_up}`;
  return `${s.id}  ${what}  ${when}  ${s.profile}  ${state}${last}`;
}

/** registers `schedules` and its subcommands on the program; `exit` receives the exit code of an error */
export function registerSchedules(program: Command, io: SchedulesIo = defaultIo, exit: (code: number) => void = (code) => (process.exitCode = code)): Command {
  const schedules = program
    .command('schedules')
    .description('scan targets on a cron schedule or after each deploy (against a server: GAUNTLET_URL, GAUNTLET_API_KEY)')
    .option('--url <base>', 'service address (env GAUNTLET_URL, default http://localhost:3000)')
    .option('--api-key <key>', 'API key (prefer env GAUNTLET_API_KEY: arguments show in process lists)')
    .option('--json', 'print the service\'s JSON answer')
    .configureOutput({ writeOut: (s) => io.stdout(s.trimEnd()), writeErr: (s) => io.stderr(s.trimEnd()) });

  const run = (action: (client: SchedulesClient, opts: any) => Promise<any>) => async (...args: any[]) => {
    const command = args[args.length - 1] as Command;
    const opts = { ...schedules.opts(), ...command.opts() };
    try {
      const client = new SchedulesClient({ url: opts.url, apiKey: opts.apiKey }, io);
      const result = await action(client, { ...opts, args: args.slice(0, -2) });
      if (result === undefined) return;
      if (opts.json) io.stdout(JSON.stringify(result, null, 2));
      else if (Array.isArray(result)) result.forEach((s) => io.stdout(describe(s)));
      else io.stdout(describe(result));
    } catch (err) {
      io.stderr(`gauntlet schedules: ${err instanceof Error ? err.message : String(err)}`);
      exit(EXIT_ERROR);
    }
  };

  schedules
    .command('list')
    .description('list the schedules')
    .option('--target <id>', 'only the schedules of this target')
    .action(run(async (c, o) => {
      const all: any[] = [];
      let cursor: string | null = null;
      do {
        const q = new URLSearchParams({ limit: '200', ...(o.target && { target_id: o.target }), ...(cursor && { cursor }) });
        const page = await c.call('GET', `/api/schedules?${q}`);
        all.push(...page.schedules);
        cursor = page.next_cursor;
      } while (cursor && all.length < 10_000);
      return all;
    }));

  withBudgetOptions(schedules
    .command('create'))
    .description('create a schedule for one target (--target) or every target of a tag (--tag), on a cron time table (--cron) or after each deploy (--on-deploy)')
    .addOption(new Option('--target <id>', 'the target to scan').conflicts('tag'))
    .addOption(new Option('--tag <tag>', 'scan every target carrying this tag').conflicts('target'))
    .addOption(new Option('--cron <expr>', 'five-field cron, e.g. "0 3 * * 1-5"').argParser(cronArg).conflicts('onDeploy'))
    .addOption(new Option('--on-deploy', 'fire after each deploy a pipeline reports (gauntlet deploy, POST /api/ci/deploy) instead of on a cron').conflicts(['cron', 'timezone', 'catchUp']))
    .option('--timezone <tz>', 'IANA time zone the cron is read in (default UTC)')
    .addOption(new Option('--profile <profile>', 'scan profile').choices([...PROFILES]).default('standard'))
    .addOption(new Option('--catch-up <policy>', 'after downtime: skip missed times, or run once (default skip)').choices(['skip', 'run_once']))
    .option('--paused', 'create it paused')
    .action(run(async (c, o) => {
      if (!o.target === !o.tag) throw new ScheduleClientError('give --target ID or --tag TAG');
      if (!o.cron === !o.onDeploy) throw new ScheduleClientError('give --cron EXPR or --on-deploy');
      const when = o.onDeploy ? { trigger: 'deploy' } : { cron: o.cron, timezone: o.timezone ?? 'UTC', catch_up: o.catchUp ?? 'skip' };
      return c.call('POST', '/api/schedules', { ...(o.target ? { target_id: o.target } : { tag: o.tag }), ...when, profile: o.profile, ...(o.paused && { paused: true }), ...budgetBody(o) });
    }));

  schedules.command('get <id>').description('show one schedule').action(run((c, o) => c.call('GET', `/api/schedules/${encodeURIComponent(o.args[0])}`)));

  withBudgetOptions(schedules
    .command('update <id>'))
    .description('change the time table, profile, budget or catch-up policy (a deploy schedule: no time table)')
    .option('--cron <expr>', 'five-field cron', cronArg)
    .option('--timezone <tz>', 'IANA time zone')
    .addOption(new Option('--profile <profile>', 'scan profile').choices([...PROFILES]))
    .addOption(new Option('--catch-up <policy>', 'skip or run_once').choices(['skip', 'run_once']))
    .action(run((c, o) => {
      const body = { ...(o.cron && { cron: o.cron }), ...(o.timezone && { timezone: o.timezone }), ...(o.profile && { profile: o.profile }), ...(o.catchUp && { catch_up: o.catchUp }), ...budgetBody(o) };
      if (!Object.keys(body).length) throw new ScheduleClientError('nothing to change: give --cron, --timezone, --profile, --catch-up or a budget (--max-requests, ...)');
      return c.call('PATCH', `/api/schedules/${encodeURIComponent(o.args[0])}`, body);
    }));

  schedules.command('pause <id>').description('stop firing until resumed').action(run((c, o) => c.call('PATCH', `/api/schedules/${encodeURIComponent(o.args[0])}`, { paused: true })));
  schedules.command('resume <id>').description('fire again from now on (what fell due while paused is not run)').action(run((c, o) => c.call('PATCH', `/api/schedules/${encodeURIComponent(o.args[0])}`, { paused: false })));
  schedules
    .command('delete <id>')
    .description('delete a schedule (its history stays in the log)')
    .action(run(async (c, o) => {
      await c.call('DELETE', `/api/schedules/${encodeURIComponent(o.args[0])}`);
      io.stdout(`deleted ${o.args[0]}`);
      return undefined;
    }));
  return schedules;
}
