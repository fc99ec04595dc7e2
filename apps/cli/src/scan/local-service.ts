import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScanReport } from '@gauntlet/assessment';
import type { CiGatePolicy, ProbeSelection, Profile, RequestPlan, ScanBudget } from '@gauntlet/domain';
import type { ScanDoc, TargetDoc } from '@gauntlet/read-models';
import { CallbackDnsUnavailable, CallbackListening, ConfigError, EmbeddedService, serveEmbedded, StartupError, TargetBody, targetBodyProblems, TargetBodyInvalid } from '../../../gauntlet/src/embedded';
import { CliError } from '../io';
import { inCliWords } from '../terminal/cli-words';

export type { CallbackListening };

/** A target as the CLI and gauntlet.yaml describe it: the service's registration body, secrets in clear (they are sealed on the way in). */
export type TargetSpec = TargetBody;

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

/** Where `gauntlet serve` listens unless told: the links in the reports local scans write point there. */
export const SERVE_DEFAULTS = { host: '127.0.0.1', port: 3000 };
export const serveUrl = (host = SERVE_DEFAULTS.host, port = SERVE_DEFAULTS.port) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * The service in this process through its front door (apps/gauntlet/src/embedded), in the CLI's
 * words: its data folder's local account (the password kept in the folder), and every error the
 * service raises said as the CLI says things (flags, not environment variables).
 */
export class LocalService {
  readonly accountFile = LOCAL_ACCOUNT_FILE;
  private constructor(
    private readonly service: EmbeddedService,
    readonly dataDir: string,
  ) {}

  static async open(options: LocalServiceOptions): Promise<LocalService> {
    const file = join(options.dataDir, LOCAL_ACCOUNT_FILE);
    const password = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')).password as string) : randomBytes(18).toString('base64url');
    let service: EmbeddedService;
    try {
      // the reports' links (the scan, its event export) point where `gauntlet serve` serves this folder
      service = await EmbeddedService.open({ ...options, publicBaseUrl: serveUrl(), account: { email: LOCAL_EMAIL, password: () => password } });
    } catch (e) {
      if (e instanceof ConfigError) throw new CliError(e.message);
      if (e instanceof CallbackDnsUnavailable) throw new CliError(`--callback-dns: ${e.message}`);
      throw e;
    }
    if (service.account.created) {
      writeFileSync(file, JSON.stringify({ email: LOCAL_EMAIL, password, note: 'sign in with these when `gauntlet serve --data-dir <this folder>` serves the scans the CLI ran' }, null, 2) + '\n', { mode: 0o600 });
    }
    return new LocalService(service, options.dataDir);
  }

  get account(): { id: string; email: string } {
    return { id: this.service.account.id, email: this.service.account.email };
  }

  /** where the callback listener listens (`http://127.0.0.1:<port>/oob`) */
  get callbackListening(): string {
    return this.service.callbackListening;
  }

  /** where its DNS side answers (`127.0.0.1:<port>`), '' without one */
  get callbackDnsListening(): string {
    return this.service.callbackDnsListening;
  }

  /** Registers the target, or updates the account's target of the same name, so its scans share one history (diff, new findings). */
  async upsertTarget(spec: TargetSpec): Promise<TargetDoc> {
    return this.service.upsertTarget(spec).catch((e) => Promise.reject(asCliError(e, `target ${spec.name}`)));
  }

  /**
   * `gauntlet forget`: the target (by name or id) leaves the folder's targets and fleet, as the
   * API's DELETE does; its scans stay in the log. A mistyped URL's target is forgotten this way.
   */
  async forgetTarget(nameOrId: string): Promise<TargetDoc> {
    const targets = await this.service.targets();
    const found = targets.find((t) => t._id === nameOrId) ?? targets.find((t) => t.name === nameOrId);
    if (!found) {
      const known = targets.map((t) => t.name).slice(0, 20);
      throw new CliError(`no target ${JSON.stringify(nameOrId)} in ${this.dataDir}${known.length ? `; its targets: ${known.join(', ')}` : ' (it has no targets)'}`);
    }
    await this.service.forgetTarget(found);
    return found;
  }

  async requestScan(target_id: string, profile: Profile, gate: { threshold: number | null; policy?: CiGatePolicy }, selection?: ProbeSelection, budget?: ScanBudget | null): Promise<string> {
    return this.service.requestScan(target_id, profile, gate, selection, budget).catch((e) => Promise.reject(asCliError(e, 'scan')));
  }

  /** the plan of a scan of `spec` as the service would make it; nothing is registered or sent */
  plan(spec: TargetSpec, scan: { profile: Profile; selection?: ProbeSelection; budget: ScanBudget | null; pace?: { requests_per_second: number; source: 'measured' } | null }): Promise<RequestPlan> {
    return this.service.plan(spec, scan);
  }

  scan(scan_id: string): Promise<ScanDoc> {
    return this.service.scan(scan_id);
  }

  /** Stops the scanner: a running scan ends completed_partial with what it found. */
  stopScanning(): Promise<void> {
    return this.service.stopScanning();
  }

  /** a scan no scanner took yet (stopped before it started) ends cancelled: there is nothing partial to keep */
  cancel(scan_id: string): Promise<void> {
    return this.service.cancel(scan_id);
  }

  /** the gate's facts as the service's CI gate reads them: triage and the diff with the previous scan, as of now */
  gateFacts(scan: ScanDoc) {
    return this.service.gateFacts(scan);
  }

  /** waits (bounded) until the scan has ended in the read model */
  ended(scan_id: string, timeoutMs?: number): Promise<ScanDoc> {
    return this.service.ended(scan_id, timeoutMs);
  }

  /** the domain scans plant e-mail domains under (CALLBACK_DOMAIN), null without one */
  get callbackDomain(): string | null {
    return this.service.callbackDomain;
  }

  /** the address scans plant callbacks under (CALLBACK_BASE_URL) */
  get callbackBaseUrl(): string {
    return this.service.callbackBaseUrl;
  }

  /** where `gauntlet serve` shows the scan (its default address) */
  scanUrl(scan_id: string): string {
    return this.service.scanUrl(scan_id);
  }

  /** the report model, built from the scan's events as the service's report route builds it */
  report(scan: ScanDoc): Promise<ScanReport> {
    return this.service.report(scan);
  }

  close(): Promise<void> {
    return this.service.close();
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
  try {
    const served = await serveEmbedded({ ...options, publicBaseUrl: serveUrl(options.host, options.port) });
    return { url: served.url ?? serveUrl(options.host, options.port), account, accountFile: join(options.dataDir, LOCAL_ACCOUNT_FILE), close: served.close };
  } catch (e) {
    if (e instanceof ConfigError) throw new CliError(e.message);
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

/** What the service would refuse in a target, found before anything is sent (the request's rules and the domain's), each naming its field. */
export const targetProblems = targetBodyProblems;

function asCliError(e: unknown, what: string): Error {
  if (e instanceof TargetBodyInvalid) return new CliError(inCliWords(e.message));
  if (e instanceof Error && 'extras' in e) {
    const errors = (e as { extras?: { errors?: { field: string; message: string }[] } }).extras?.errors ?? [];
    return new CliError(inCliWords(`${what}: ${e.message}${errors.length ? ` (${errors.map((x) => `${x.field}: ${x.message}`).join('; ')})` : ''}`));
  }
  if (e instanceof Error && e.name === 'DomainError') return new CliError(inCliWords(`${what}: ${e.message}`));
  return e as Error;
}
