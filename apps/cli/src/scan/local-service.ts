import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { INestApplicationContext } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildScanReport, ScanReport } from '@gauntlet/assessment';
import { checkSettings, CiGatePolicy, DomainError, isTerminal, ProbeSelection, Profile, RequestPlan, ScanBudget, takesTools, TargetSettings } from '@gauntlet/domain';
import type { ScanDoc, TargetDoc } from '@gauntlet/read-models';
import { AppModule } from '../../../gauntlet/src/app.module';
import { AccountReader } from '../../../gauntlet/src/auth/account-reader';
import { RegisterAccount } from '../../../gauntlet/src/auth/registering-account/register-account';
import { loadConfig } from '../../../gauntlet/src/config/config';
import { startRoles, StartupError } from '../../../gauntlet/src/main';
import { createLogger } from '../../../gauntlet/src/platform/logger';
import { createRuntime, Runtime } from '../../../gauntlet/src/runtime';
import { ScanWorker } from '../../../gauntlet/src/scanning/scan-worker';
import { CancelScan } from '../../../gauntlet/src/scans/cancelling-scan/cancel-scan';
import { pairsFirst } from '../../../gauntlet/src/http/validation';
import { RequestScan } from '../../../gauntlet/src/scans/requesting-scan/request-scan';
import { ScanHistory } from '../../../gauntlet/src/scans/scan-history';
import { ScanReader } from '../../../gauntlet/src/scans/scan-reader';
import { ScanPlanner } from '../../../gauntlet/src/scans/planning-scan/plan-scan';
import { RegisterTargetBody, UpdateTargetBody } from '../../../gauntlet/src/targets/dto';
import { RegisterTarget } from '../../../gauntlet/src/targets/registering-target/register-target';
import { TargetReader } from '../../../gauntlet/src/targets/target-reader';
import { UpdateTarget } from '../../../gauntlet/src/targets/updating-target/update-target';
import { DeleteTarget } from '../../../gauntlet/src/targets/deleting-target/delete-target';
import { CliError } from '../io';
import { CALLBACK_MOUNT, CallbackListener, startCallbackDns, startCallbackServer } from '@gauntlet/scanner';
import { callbackListener, ScanStreamHits } from '../../../gauntlet/src/callbacks/scan-stream-hits';
import { inCliWords } from '../terminal/cli-words';

/** A target as the CLI and gauntlet.yaml describe it: the service's registration body, secrets in clear (they are sealed on the way in). */
export type TargetSpec = Omit<RegisterTargetBody, 'check'>;

/** The account CLI scans belong to, so `npm start` on the same folder can show them (its password is in the folder, 0600). */
export const LOCAL_ACCOUNT_FILE = 'cli-account.json';
const LOCAL_EMAIL = 'local@gauntlet.local';

export interface LocalServiceOptions {
  dataDir: string;
  /** the user's own machine: loopback and private addresses are allowed unless told otherwise */
  allowPrivate: boolean;
  env: Record<string, string | undefined>;
  /**
   * the callback listener: where it listens (loopback, a free port, by default) and the public
   * address probes plant (default: its own loopback address, enough for a target on this machine)
   */
  callback?: CallbackListening;
  /** only to plan: no scanner and no callback listener (nothing will be scanned, nothing planted) */
  planOnly?: boolean;
}

/**
 * The callback listener of a local scan: where its HTTP side listens and the public address probes
 * plant (`url`), the domain e-mail addresses are planted under, and where its DNS side answers for
 * that domain (with the addresses a planted name resolves to).
 */
export interface CallbackListening {
  url?: string;
  host: string;
  port: number;
  domain?: string;
  dns?: { host: string; port: number; answers: string[] };
}

/** Where `gauntlet serve` listens unless told: the links in the reports local scans write point there. */
export const SERVE_DEFAULTS = { host: '127.0.0.1', port: 3000 };
export const serveUrl = (host = SERVE_DEFAULTS.host, port = SERVE_DEFAULTS.port) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/** What the environment may configure of the engine: never distributed stores, never a port. */
const PASSED_THROUGH = ['JUDGE_URL', 'JUDGE_MODEL', 'JUDGE_API_KEY', 'ATTACKER_URL', 'ATTACKER_MODEL', 'ATTACKER_API_KEY', 'SECRETS_KEY', 'JWT_SECRET'];

/**
 * The service's own composition, in this process, without an HTTP listener: the embedded store
 * in the data folder, the command handlers (through Nest's command bus), the projector, the
 * relay that turns a ScanRequested into a job, and a scanner worker. Scans run exactly as
 * `npm start` runs them, so `DATA_DIR=<folder> npm start` serves their history afterwards.
 */
export class LocalService {
  private worker: ScanWorker | null = null;
  readonly accountFile = LOCAL_ACCOUNT_FILE;
  /** where the callback listener listens (`http://127.0.0.1:<port>/oob`) */
  callbackListening = '';
  /** where its DNS side answers (`127.0.0.1:<port>`), '' without one */
  callbackDnsListening = '';
  private constructor(
    private readonly runtime: Runtime,
    private readonly app: INestApplicationContext,
    readonly account: { id: string; email: string },
    readonly dataDir: string,
  ) {}

  static async open(options: LocalServiceOptions): Promise<LocalService> {
    // the callback listener first: its address is what the scans plant; it answers once the service is up.
    // The reports' links (the scan, its event export) point where `gauntlet serve` serves this folder.
    let listener: CallbackListener | null = null;
    // a plan counts an address's length, not an address: no listener is opened for it
    const callbacks = options.planOnly
      ? { url: 'http://127.0.0.1:0', close: async () => {} }
      : await startCallbackServer(
          { answer: (r) => (listener ? listener.answer(r) : Promise.resolve({ status: 503, headers: {}, body: '' })), hearsHost: (h) => listener?.hearsHost(h) ?? false },
          options.callback?.host,
          options.callback?.port,
        );
    const listening = `${callbacks.url}${CALLBACK_MOUNT}`;
    let config: ReturnType<typeof engineConfig>;
    let runtime: Awaited<ReturnType<typeof createRuntime>>;
    try {
      config = engineConfig(options, { PORT: '0', PUBLIC_BASE_URL: serveUrl(), LOG_LEVEL: options.env.GAUNTLET_LOG_LEVEL ?? 'silent', CALLBACK_BASE_URL: options.callback?.url ?? listening, ...(options.callback?.domain && { CALLBACK_DOMAIN: options.callback.domain }) });
      runtime = await createRuntime(config, createLogger(config.logLevel));
    } catch (e) {
      await callbacks.close();
      throw e;
    }
    runtime.onClose(() => callbacks.close());
    listener = callbackListener(runtime, new ScanStreamHits(runtime.writePath, new ScanHistory(runtime.infra.events)));
    let dnsListening = '';
    const dnsAt = options.planOnly ? undefined : options.callback?.dns;
    if (dnsAt) {
      try {
        const dns = await startCallbackDns(listener, dnsAt);
        runtime.onClose(() => dns.close());
        dnsListening = `${dns.host.includes(':') ? `[${dns.host}]` : dns.host}:${dns.port}`;
      } catch (e) {
        await runtime.close();
        throw new CliError(`--callback-dns: cannot listen on udp ${dnsAt.host}:${dnsAt.port} (${(e as Error).message})`);
      }
    }
    let app: INestApplicationContext | null = null;
    try {
      app = await NestFactory.createApplicationContext(AppModule.forRuntime(runtime, await runtime.infra.budgets()), { logger: false });
      runtime.onClose(() => app!.close());
      // the projector first (writes wait for it), then the relay that turns requests into scan jobs
      await startRoles(runtime, ['projector', 'relay']);
      const account = await localAccount(app, options.dataDir);
      const service = new LocalService(runtime, app, account, options.dataDir);
      service.callbackListening = listening;
      service.callbackDnsListening = dnsListening;
      if (!options.planOnly) {
        service.worker = new ScanWorker(runtime, { concurrency: 1, leaseMs: config.scanLeaseMs });
        await service.worker.start();
      }
      return service;
    } catch (e) {
      await runtime.close();
      throw e;
    }
  }

  private get commands(): CommandBus {
    return this.app.get(CommandBus);
  }

  private context() {
    return { actor: `cli:${this.account.id}`, correlationId: randomUUID() };
  }

  /** Registers the target, or updates the account's target of the same name, so its scans share one history (diff, new findings). */
  async upsertTarget(spec: TargetSpec): Promise<TargetDoc> {
    const body: Record<string, unknown> = { ...spec };
    const targets = this.app.get(TargetReader);
    const existing = (await this.runtime.infra.documents.collection<TargetDoc>('targets').find({ account_id: this.account.id, deleted: false }, { limit: 1000 })).find((t) => t.name === spec.name);
    try {
      if (existing) {
        await this.commands.execute(new UpdateTarget({ account_id: this.account.id, target_id: existing._id, body: await validBody(UpdateTargetBody, { ...body, headers: body.headers ?? null, tools: body.tools ?? (takesTools({ scan_mode: spec.scan_mode, api_format: spec.api_format ?? null }) ? 'decoy' : 'none') }), context: this.context() }));
        return (await targets.get(existing._id))!;
      }
      const view = await this.commands.execute(new RegisterTarget({ account_id: this.account.id, body: await validBody(RegisterTargetBody, body), context: this.context() }));
      return (await targets.get(view.id))!;
    } catch (e) {
      throw asCliError(e, `target ${spec.name}`);
    }
  }

  /**
   * `gauntlet forget`: the target (by name or id) leaves the folder's targets and fleet, as the
   * API's DELETE does; its scans stay in the log. A mistyped URL's target is forgotten this way.
   */
  async forgetTarget(nameOrId: string): Promise<TargetDoc> {
    const targets = await this.runtime.infra.documents.collection<TargetDoc>('targets').find({ account_id: this.account.id, deleted: false }, { limit: 1000 });
    const found = targets.find((t) => t._id === nameOrId) ?? targets.find((t) => t.name === nameOrId);
    if (!found) {
      const known = targets.map((t) => t.name).slice(0, 20);
      throw new CliError(`no target ${JSON.stringify(nameOrId)} in ${this.dataDir}${known.length ? `; its targets: ${known.join(', ')}` : ' (it has no targets)'}`);
    }
    await this.commands.execute(new DeleteTarget({ account_id: this.account.id, target_id: found._id, context: this.context() }));
    return found;
  }

  async requestScan(target_id: string, profile: Profile, gate: { threshold: number | null; policy?: CiGatePolicy }, selection?: ProbeSelection, budget?: ScanBudget | null): Promise<string> {
    try {
      const origin = gate.threshold === null && !gate.policy ? 'api' : 'ci';
      const scan = await this.commands.execute(
        new RequestScan({ account_id: this.account.id, plan: 'enterprise', target_id, profile, origin, fail_threshold: gate.threshold, context: this.context(), gate: gate.policy, selection, budget }),
      );
      return scan.id;
    } catch (e) {
      throw asCliError(e, 'scan');
    }
  }

  /**
   * The plan of a scan of `spec` as the service would make it (ScanPlanner): the folder's target of
   * the same name gives the seed and what its previous scan spent; nothing is registered or sent.
   */
  async plan(spec: TargetSpec, scan: { profile: Profile; selection?: ProbeSelection; budget: ScanBudget | null; pace?: { requests_per_second: number; source: 'measured' } | null }): Promise<RequestPlan> {
    const existing = (await this.runtime.infra.documents.collection<TargetDoc>('targets').find({ account_id: this.account.id, deleted: false }, { limit: 1000 })).find((t) => t.name === spec.name);
    const settings = { scan_mode: spec.scan_mode, api_format: spec.api_format ?? null, max_requests_per_second: spec.max_requests_per_second ?? null, tools: spec.tools };
    return this.app.get(ScanPlanner).planFor({ id: existing?._id ?? null, ...settings }, { ...scan, seed: spec.name });
  }

  async scan(scan_id: string): Promise<ScanDoc> {
    return (await this.runtime.infra.documents.collection<ScanDoc>('scans').get(scan_id))!;
  }

  /**
   * Stops the scanner: a running scan ends completed_partial with what it found (the domain's
   * ending for a scanner that stops), and the read models catch up before anything reads them.
   */
  async stopScanning(): Promise<void> {
    await this.worker?.stop();
    this.worker = null;
  }

  /** a scan no scanner took yet (stopped before it started) ends cancelled: there is nothing partial to keep */
  async cancel(scan_id: string): Promise<void> {
    await this.commands.execute(new CancelScan({ account_id: this.account.id, scan_id, context: this.context() })).catch(() => undefined);
  }

  /** the gate's facts as the service's CI gate reads them: triage and the diff with the previous scan, as of now */
  async gateFacts(scan: ScanDoc) {
    const findings = await this.reader.triagedFindings(scan);
    const open = findings.filter((v) => !v.triage || v.triage.state === 'open');
    const openIds = new Set(open.map((v) => v.id));
    const [after, changes] = await Promise.all([scan.score ? this.reader.scoreAfterTriage({ ...scan, score: scan.score }, findings) : null, this.reader.changes(scan, findings)]);
    return {
      status: scan.status, score: scan.score, score_after_triage: after, base_scan_id: changes.base_scan_id,
      new_open: changes.new.filter((id) => openIds.has(id)), open_severities: open.map((v) => v.severity),
    };
  }

  /** waits (bounded) until the scan has ended in the read model */
  async ended(scan_id: string, timeoutMs = 30_000): Promise<ScanDoc> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const doc = await this.scan(scan_id);
      if (isTerminal(doc.status) || Date.now() > deadline) return doc;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** the domain scans plant e-mail domains under (CALLBACK_DOMAIN), null without one */
  get callbackDomain(): string | null {
    return this.runtime.config.callbackDomain;
  }

  /** the address scans plant callbacks under (CALLBACK_BASE_URL) */
  get callbackBaseUrl(): string {
    return this.runtime.config.callbackBaseUrl;
  }

  /** where `gauntlet serve` shows the scan (its default address) */
  scanUrl(scan_id: string): string {
    return `${this.runtime.config.publicBaseUrl}/app/scans/${scan_id}`;
  }

  get reader(): ScanReader {
    return this.app.get(ScanReader);
  }

  /** the report model, built from the scan's events as the service's report route builds it */
  async report(scan: ScanDoc): Promise<ScanReport> {
    const [target, history, triage, base] = await Promise.all([
      this.app.get(TargetReader).get(scan.target_id),
      this.app.get(ScanHistory).read(scan._id),
      this.reader.triageDecisions(scan.target_id),
      this.reader.reportBase(scan),
    ]);
    return buildScanReport(history, {
      target: target ? { id: target._id, name: target.name, url: target.url, scan_mode: target.scan_mode } : undefined,
      baseUrl: this.runtime.config.publicBaseUrl,
      generatedAt: new Date().toISOString(),
      triage,
      base,
    });
  }

  async close(): Promise<void> {
    await this.stopScanning();
    await this.runtime.close();
  }
}

/** the engine's configuration for the CLI's data folder (the embedded store, the user's machine allowed unless told) */
function engineConfig(options: LocalServiceOptions, extra: Record<string, string>) {
  const env: Record<string, string> = {
    DATA_DIR: options.dataDir, RATE_LIMIT_PER_MINUTE: '0',
    OUTBOUND_ALLOW_PRIVATE: String(options.allowPrivate), SCAN_QUOTA_ENTERPRISE: 'unlimited', ...extra,
  };
  // the browser as the engine finds it (libs/scanner/src/drivers/browser/chromium.ts): CHROMIUM_PATH when set, else Playwright's Chromium, else a system one
  if (options.env.CHROMIUM_PATH) env.CHROMIUM_PATH = options.env.CHROMIUM_PATH;
  for (const name of PASSED_THROUGH) if (options.env[name]) env[name] = options.env[name]!;
  try {
    return loadConfig(env);
  } catch (e) {
    throw new CliError((e as Error).message);
  }
}

/**
 * `gauntlet serve`: the whole service (API, dashboard, projector, scanner, scheduler) over the
 * CLI's data folder, as `npm start` runs it in a checkout; loopback unless told. The local
 * account is made first when the folder has none, so the user can always sign in.
 */
export async function serveLocal(options: LocalServiceOptions & { host: string; port: number }): Promise<{ url: string; account: { email: string }; accountFile: string; close(): Promise<void> }> {
  const local = await LocalService.open(options);
  const account = local.account;
  await local.close();
  const config = engineConfig(options, {
    HOST: options.host, PORT: String(options.port), PUBLIC_BASE_URL: serveUrl(options.host, options.port), LOG_LEVEL: options.env.GAUNTLET_LOG_LEVEL ?? 'warn',
  });
  const runtime = await createRuntime(config, createLogger(config.logLevel));
  try {
    const { url } = await startRoles(runtime, ['all']);
    return { url: url ?? serveUrl(options.host, options.port), account, accountFile: join(options.dataDir, LOCAL_ACCOUNT_FILE), close: () => runtime.close() };
  } catch (e) {
    await runtime.close().catch(() => undefined);
    if (!(e instanceof StartupError)) throw e;
    // the service's words name PORT and npm start; here the flag is --port
    throw new CliError(
      e.code === 'EADDRINUSE'
        ? `port ${options.port} on ${options.host} is already in use (another gauntlet serve, perhaps): choose another with --port${e.suggestedPort ? `, e.g. gauntlet serve --port ${e.suggestedPort}` : ''}`
        : e.code === 'EACCES'
          ? `port ${options.port} needs privileges this user lacks: choose one above 1023 with --port`
          : e.code === 'EADDRNOTAVAIL'
            ? `address ${options.host} is not one of this machine's: give --host one of its addresses, or 0.0.0.0 for every interface`
            : e.message,
    );
  }
}

/** the local account, created on the folder's first scan on the enterprise plan (every report format, no quota) */
async function localAccount(app: INestApplicationContext, dataDir: string): Promise<{ id: string; email: string }> {
  const file = join(dataDir, LOCAL_ACCOUNT_FILE);
  const accounts = app.get(AccountReader);
  const found = await accounts.byEmail(LOCAL_EMAIL);
  if (found) return { id: found._id, email: LOCAL_EMAIL };
  const password = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')).password as string) : randomBytes(18).toString('base64url');
  const created = await app.get(CommandBus).execute(new RegisterAccount({ email: LOCAL_EMAIL, password, plan: 'enterprise', role: 'member', context: { actor: 'cli', correlationId: randomUUID() } }));
  writeFileSync(file, JSON.stringify({ email: LOCAL_EMAIL, password, note: 'sign in with these when `gauntlet serve --data-dir <this folder>` serves the scans the CLI ran' }, null, 2) + '\n', { mode: 0o600 });
  return { id: created.id, email: LOCAL_EMAIL };
}

/**
 * What the service would refuse in a target, found before anything is sent: the request body's
 * rules (the DTO's) and the domain's rules for settings together (http's body template, a
 * format's model...). Each problem names the field in the service's words (url, api_format,
 * scan_mode, http.body_template); the caller says it in the CLI's.
 */
export async function targetProblems(spec: TargetSpec): Promise<{ field: string; message: string; named: boolean }[]> {
  const instance = plainToInstance(RegisterTargetBody, pairsFirst(RegisterTargetBody, { ...spec }));
  const errors = await validate(instance, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length) {
    // the DTO's messages start with the field's name ("url must be a URL address"): the field is said apart
    const flat = (e: (typeof errors)[number], path: string): { field: string; message: string; named: boolean }[] => [
      ...Object.values(e.constraints ?? {}).map((m) => ({ field: `${path}${e.property}`, message: m.startsWith(`${e.property} `) ? m.slice(e.property.length + 1) : m, named: false })),
      ...(e.children ?? []).flatMap((c) => flat(c, `${path}${e.property}.`)),
    ];
    return errors.flatMap((e) => flat(e, ''));
  }
  try {
    // the settings as the service would keep them: which fields are set is what the rules read
    checkSettings({ ...spec, headers_encrypted: spec.headers && Object.keys(spec.headers).length ? 'set' : undefined } as unknown as TargetSettings);
  } catch (e) {
    if (e instanceof DomainError) return [{ field: String(e.details.field ?? 'target'), message: e.message.replace(/\.$/, ''), named: true }];
    throw e;
  }
  return [];
}

/** the service's own validation of a target body (the DTO's rules), as one line naming the field */
async function validBody<T extends object>(type: new () => T, body: Record<string, unknown>): Promise<T> {
  // the request pipe's own reading: header maps become [name, value] pairs before mapping
  const instance = plainToInstance(type, pairsFirst(type, body));
  const errors = await validate(instance, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length) {
    const flat = (e: (typeof errors)[number], path: string): string[] =>
      [...Object.values(e.constraints ?? {}).map((m) => `${path}${e.property}: ${m}`), ...(e.children ?? []).flatMap((c) => flat(c, `${path}${e.property}.`))];
    throw new CliError(errors.flatMap((e) => flat(e, '')).join('; '));
  }
  return instance;
}

function asCliError(e: unknown, what: string): Error {
  if (e instanceof CliError) return new CliError(inCliWords(e.message));
  if (e instanceof Error && 'extras' in e) {
    const errors = (e as { extras?: { errors?: { field: string; message: string }[] } }).extras?.errors ?? [];
    return new CliError(inCliWords(`${what}: ${e.message}${errors.length ? ` (${errors.map((x) => `${x.field}: ${x.message}`).join('; ')})` : ''}`));
  }
  if (e instanceof Error && e.name === 'DomainError') return new CliError(inCliWords(`${what}: ${e.message}`));
  return e as Error;
}
