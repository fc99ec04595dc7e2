import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { INestApplicationContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { buildScanReport, ScanReport } from '@gauntlet/assessment';
import { CiGatePolicy, isTerminal, ProbeSelection, Profile, RequestPlan, ScanBudget, toolsOf } from '@gauntlet/domain';
import type { ScanDoc, TargetDoc } from '@gauntlet/read-models';
import { CALLBACK_MOUNT, CallbackListener, startCallbackDns, startCallbackServer } from '@gauntlet/scanner';
import { AppModule } from '../app.module';
import { AccountReader } from '../auth/account-reader';
import { RegisterAccount } from '../auth/registering-account/register-account';
import { callbackListener, ScanStreamHits } from '../callbacks/scan-stream-hits';
import { Config, loadConfig } from '../config/config';
import { startRoles } from '../main';
import { createLogger } from '../platform/logger';
import { createRuntime, Runtime } from '../runtime';
import { ScanWorker } from '../scanning/scan-worker';
import { CancelScan } from '../scans/cancelling-scan/cancel-scan';
import { ScanPlanner } from '../scans/planning-scan/plan-scan';
import { RequestScan } from '../scans/requesting-scan/request-scan';
import { ScanHistory } from '../scans/scan-history';
import { ScanReader } from '../scans/scan-reader';
import { DeleteTarget } from '../targets/deleting-target/delete-target';
import { RegisterTargetBody, UpdateTargetBody } from '../targets/dto';
import { RegisterTarget } from '../targets/registering-target/register-target';
import { TargetReader } from '../targets/target-reader';
import { UpdateTarget } from '../targets/updating-target/update-target';
import { TargetBody, validTargetBody } from './target-body';

export interface EmbeddedOptions {
  /** the embedded store's folder (DATA_DIR) */
  dataDir: string;
  /** the user's own machine: loopback and private addresses are allowed unless told otherwise */
  allowPrivate: boolean;
  /** the caller's environment: only what embedded use may configure of the engine is read from it */
  env: Record<string, string | undefined>;
  /** where reports and links say the scans can be seen (the address the folder is served at) */
  publicBaseUrl: string;
  /** the account scans belong to: found by e-mail, or created with `password()` on the enterprise plan */
  account: { email: string; password: () => string };
  /**
   * the callback listener: where it listens (loopback, a free port, by default) and the public
   * address probes plant (default: its own loopback address, enough for a target on this machine)
   */
  callback?: CallbackListening;
  /** only to plan: no scanner and no callback listener (nothing will be scanned, nothing planted) */
  planOnly?: boolean;
}

/**
 * The callback listener of an embedded scan: where its HTTP side listens and the public address
 * probes plant (`url`), the domain e-mail addresses are planted under, and where its DNS side
 * answers for that domain (with the addresses a planted name resolves to).
 */
export interface CallbackListening {
  url?: string;
  host: string;
  port: number;
  domain?: string;
  dns?: { host: string; port: number; answers: string[] };
}

/** the DNS side of the callback listener could not listen where it was told */
export class CallbackDnsUnavailable extends Error {
  constructor(readonly host: string, readonly port: number, cause: Error) {
    super(`cannot listen on udp ${host}:${port} (${cause.message})`);
  }
}

/** What the environment may configure of the engine in embedded use: never distributed stores, never a port. */
const PASSED_THROUGH = ['JUDGE_URL', 'JUDGE_MODEL', 'JUDGE_API_KEY', 'ATTACKER_URL', 'ATTACKER_MODEL', 'ATTACKER_API_KEY', 'SECRETS_KEY', 'JWT_SECRET'];

/**
 * The service's own composition in the caller's process, without an HTTP listener: the embedded
 * store in the data folder, the command handlers (through Nest's command bus), the projector, the
 * relay that turns a ScanRequested into a job, and a scanner worker. Scans run exactly as
 * `npm start` runs them, so `DATA_DIR=<folder> npm start` serves their history afterwards. Errors
 * are the service's own (ConfigError, DomainError, a problem's extras, TargetBodyInvalid): the
 * caller says them in its own words.
 */
export class EmbeddedService {
  private worker: ScanWorker | null = null;
  /** where the callback listener listens (`http://127.0.0.1:<port>/oob`) */
  callbackListening = '';
  /** where its DNS side answers (`127.0.0.1:<port>`), '' without one */
  callbackDnsListening = '';
  private constructor(
    private readonly runtime: Runtime,
    private readonly app: INestApplicationContext,
    /** the account scans belong to; `created` when this opening made it */
    readonly account: { id: string; email: string; created: boolean },
  ) {}

  static async open(options: EmbeddedOptions): Promise<EmbeddedService> {
    // the callback listener first: its address is what the scans plant; it answers once the service is up
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
    let config: Config;
    let runtime: Runtime;
    try {
      config = embeddedConfig(options, {
        PORT: '0', PUBLIC_BASE_URL: options.publicBaseUrl, LOG_LEVEL: options.env.GAUNTLET_LOG_LEVEL ?? 'silent',
        CALLBACK_BASE_URL: options.callback?.url ?? listening, ...(options.callback?.domain && { CALLBACK_DOMAIN: options.callback.domain }),
      });
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
        throw new CallbackDnsUnavailable(dnsAt.host, dnsAt.port, e as Error);
      }
    }
    try {
      const app = await NestFactory.createApplicationContext(AppModule.forRuntime(runtime, await runtime.infra.budgets()), { logger: false });
      runtime.onClose(() => app.close());
      // the projector first (writes wait for it), then the relay that turns requests into scan jobs
      await startRoles(runtime, ['projector', 'relay']);
      const service = new EmbeddedService(runtime, app, await accountOf(app, options.account));
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

  /** the account's targets that are not deleted */
  targets(): Promise<TargetDoc[]> {
    return this.runtime.infra.documents.collection<TargetDoc>('targets').find({ account_id: this.account.id, deleted: false }, { limit: 1000 });
  }

  /** Registers the target, or updates the account's target of the same name, so its scans share one history (diff, new findings). */
  async upsertTarget(target: TargetBody): Promise<TargetDoc> {
    const body: Record<string, unknown> = { ...target };
    const reader = this.app.get(TargetReader);
    const existing = (await this.targets()).find((t) => t.name === target.name);
    if (existing) {
      const tools = toolsOf(target);
      await this.commands.execute(new UpdateTarget({ account_id: this.account.id, target_id: existing._id, body: await validTargetBody(UpdateTargetBody, { ...body, headers: body.headers ?? null, tools }), context: this.context() }));
      return (await reader.get(existing._id))!;
    }
    const view = await this.commands.execute(new RegisterTarget({ account_id: this.account.id, body: await validTargetBody(RegisterTargetBody, body), context: this.context() }));
    return (await reader.get(view.id))!;
  }

  /** The target leaves the folder's targets and fleet, as the API's DELETE does; its scans stay in the log. */
  async forgetTarget(target: TargetDoc): Promise<void> {
    await this.commands.execute(new DeleteTarget({ account_id: this.account.id, target_id: target._id, context: this.context() }));
  }

  async requestScan(target_id: string, profile: Profile, gate: { threshold: number | null; policy?: CiGatePolicy }, selection?: ProbeSelection, budget?: ScanBudget | null): Promise<string> {
    const origin = gate.threshold === null && !gate.policy ? 'api' : 'ci';
    const scan = await this.commands.execute(
      new RequestScan({ account_id: this.account.id, plan: 'enterprise', target_id, profile, origin, fail_threshold: gate.threshold, context: this.context(), gate: gate.policy, selection, budget }),
    );
    return scan.id;
  }

  /**
   * The plan of a scan of `target` as the service would make it (ScanPlanner): the folder's target
   * of the same name gives the seed and what its previous scan spent; nothing is registered or sent.
   */
  async plan(target: TargetBody, scan: { profile: Profile; selection?: ProbeSelection; budget: ScanBudget | null; pace?: { requests_per_second: number; source: 'measured' } | null }): Promise<RequestPlan> {
    const existing = (await this.targets()).find((t) => t.name === target.name);
    const settings = { scan_mode: target.scan_mode, api_format: target.api_format ?? null, max_requests_per_second: target.max_requests_per_second ?? null, tools: target.tools };
    return this.app.get(ScanPlanner).planFor({ id: existing?._id ?? null, ...settings }, { ...scan, seed: target.name });
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
    const reader = this.app.get(ScanReader);
    const findings = await reader.triagedFindings(scan);
    const open = findings.filter((v) => !v.triage || v.triage.state === 'open');
    const openIds = new Set(open.map((v) => v.id));
    const [after, changes] = await Promise.all([scan.score ? reader.scoreAfterTriage({ ...scan, score: scan.score }, findings) : null, reader.changes(scan, findings)]);
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

  /** where the folder's service shows the scan */
  scanUrl(scan_id: string): string {
    return `${this.runtime.config.publicBaseUrl}/app/scans/${scan_id}`;
  }

  /** the report model, built from the scan's events as the service's report route builds it */
  async report(scan: ScanDoc): Promise<ScanReport> {
    const reader = this.app.get(ScanReader);
    const [target, history, triage, base] = await Promise.all([
      this.app.get(TargetReader).get(scan.target_id),
      this.app.get(ScanHistory).bothWays(scan._id),
      reader.triageDecisions(scan.target_id),
      reader.reportBase(scan),
    ]);
    return buildScanReport(history.events, {
      recorded: history.recorded,
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

/**
 * The whole service (API, dashboard, projector, scanner, scheduler) over a data folder, as
 * `npm start` runs it in a checkout. Its StartupError says why it could not listen.
 */
export async function serveEmbedded(options: Pick<EmbeddedOptions, 'dataDir' | 'allowPrivate' | 'env' | 'publicBaseUrl'> & { host: string; port: number }): Promise<{ url?: string; close(): Promise<void> }> {
  const config = embeddedConfig(options, {
    HOST: options.host, PORT: String(options.port), PUBLIC_BASE_URL: options.publicBaseUrl, LOG_LEVEL: options.env.GAUNTLET_LOG_LEVEL ?? 'warn',
  });
  const runtime = await createRuntime(config, createLogger(config.logLevel));
  try {
    const { url } = await startRoles(runtime, ['all']);
    return { url, close: () => runtime.close() };
  } catch (e) {
    await runtime.close().catch(() => undefined);
    throw e;
  }
}

/** the engine's configuration for a data folder: the embedded store, the user's machine allowed unless told */
function embeddedConfig(options: Pick<EmbeddedOptions, 'dataDir' | 'allowPrivate' | 'env'>, extra: Record<string, string>): Config {
  const env: Record<string, string> = {
    DATA_DIR: options.dataDir, RATE_LIMIT_PER_MINUTE: '0',
    OUTBOUND_ALLOW_PRIVATE: String(options.allowPrivate), SCAN_QUOTA_ENTERPRISE: 'unlimited', ...extra,
  };
  // the browser as the engine finds it (libs/scanner/src/drivers/browser/chromium.ts): CHROMIUM_PATH when set, else Playwright's Chromium, else a system one
  if (options.env.CHROMIUM_PATH) env.CHROMIUM_PATH = options.env.CHROMIUM_PATH;
  for (const name of PASSED_THROUGH) if (options.env[name]) env[name] = options.env[name]!;
  return loadConfig(env);
}

/** the account scans belong to, created on the folder's first opening on the enterprise plan (every report format, no quota) */
async function accountOf(app: INestApplicationContext, account: EmbeddedOptions['account']): Promise<{ id: string; email: string; created: boolean }> {
  const found = await app.get(AccountReader).byEmail(account.email);
  if (found) return { id: found._id, email: account.email, created: false };
  const created = await app.get(CommandBus).execute(
    new RegisterAccount({ email: account.email, password: account.password(), plan: 'enterprise', role: 'member', context: { actor: 'cli', correlationId: randomUUID() } }),
  );
  return { id: created.id, email: account.email, created: true };
}
