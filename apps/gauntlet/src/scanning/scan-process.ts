import { scoreScan } from '@gauntlet/assessment';
import { SecretBox } from '@gauntlet/auth';
import { DomainError, isTerminal, leaseExpired, leaseTimings, ScanCommand, scanDecider, scanEnding, ScanRunOutcome, ScanScore, ScanSpending, streams } from '@gauntlet/domain';
import type { DocumentStore, ScanDoc, TargetDoc } from '@gauntlet/read-models';
import { CallbackInbox, callbackKey, CallbackListener, proxyCallbackHook, concurrencyFor, createChatDriver, createLlmAttacker, createLlmJudge, runScan, ScanMeters, ScanOutcome, ScanSink, ScanTarget, SpendMeter } from '@gauntlet/scanner';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { WritePath } from '../platform/write-path';
import type { ScanHistory } from '../scans/scan-history';
import { knownOfTarget } from '../scans/previous-scan';
import { openHeaders, openSensitive, openTools } from '../targets/target-secrets';
import type { ScanJob } from './scan-jobs';
import type { ScanClaims, ScanWriter } from './scan-claims';

export interface ScanProcessDeps {
  writePath: WritePath;
  claims: ScanClaims;
  docs: DocumentStore;
  history: ScanHistory;
  secrets: SecretBox;
  config: Pick<Config, 'outboundAllowPrivate' | 'chromiumPath' | 'browserOperationTimeoutMs' | 'browserNavigationTimeoutMs' | 'judge' | 'attacker' | 'callbackBaseUrl' | 'callbackDomain' | 'secretsKey'>;
  /**
   * the callback listener: the scan hears of requests to the addresses it planted (the hits its
   * stream holds), and a scanned chat page's requests to it are answered at the page's proxy
   */
  callbacks: { inbox: CallbackInbox; listener: Pick<CallbackListener, 'answer'> };
  log: Logger;
  now: () => Date;
}

/** the engine's outcome in the domain's words: an engine stopped without the user's cancel is a scanner stopping */
const runOutcome = (outcome: ScanOutcome): ScanRunOutcome => (outcome.kind === 'cancelled' ? { kind: 'stopped' } : outcome);

/**
 * The process manager of a claimed scan: runs the engine against the target, turns what the
 * engine reports into commands on the scan's stream (phases, attempts, findings), and its
 * outcome into the command that ends the scan (the domain's scanEnding). It also ends scans
 * whose scanner was lost (reap). No rule lives here: they are the scan decider's and the
 * domain's termination policy.
 */
export class ScanProcess {
  constructor(private readonly deps: ScanProcessDeps) {}

  private iso(): string {
    return this.deps.now().toISOString();
  }

  async run(writer: ScanWriter, job: ScanJob, abort: AbortController): Promise<void> {
    const { config, docs, secrets, claims } = this.deps;
    const end = async (command: ScanCommand) => {
      try {
        await writer.handle(command);
      } catch (err) {
        // already ended (cancelled meanwhile): nothing to record
        if (!(err instanceof DomainError && isTerminal(writer.state.status))) throw err;
      }
    };
    const heartbeat = setInterval(async () => {
      try {
        await claims.renew(job.scan_id);
        const doc = await docs.collection<ScanDoc>('scans').get(job.scan_id);
        if (doc?.status === 'cancelled') abort.abort();
      } catch (err) {
        this.deps.log.error({ err, scan_id: job.scan_id }, 'lease renewal failed');
      }
    }, leaseTimings(claims.leaseMs).renewEveryMs);
    const target = await docs.collection<TargetDoc>('targets').get(job.target_id);
    if (!target || target.deleted) {
      clearInterval(heartbeat);
      await end(scanEnding({ kind: 'target_deleted' }, { score: scoreScan({ attempts: [], vulnerabilities: [] }), attempts: 0, now: this.iso() }));
      await claims.release(job.scan_id);
      return;
    }
    // what the engine reports goes to the scan's stream and is kept there alone: the ending scores from it
    const sink: ScanSink = {
      recordPlan: async (plan) => void (await writer.handle({ type: 'RecordPlan', plan, now: this.iso() })),
      enterPhase: async (phase, progress) => void (await writer.handle({ type: 'EnterPhase', phase, progress, now: this.iso() })),
      recordAttempt: async (attempt, progress, facts = {}) => {
        const { findingsSoFar: findings_so_far, proved, secondsLeft: seconds_left, requestsSent: requests_sent } = facts;
        await writer.handle({
          type: 'RecordProbeAttempt', attempt, progress, now: this.iso(), ...(findings_so_far !== undefined && { findings_so_far }), ...(proved?.length && { proved }), ...(seconds_left !== undefined && { seconds_left }),
          ...(requests_sent !== undefined && { requests_sent }),
        });
      },
      recordVulnerability: async (vulnerability) => {
        await writer.handle({ type: 'RecordVulnerability', vulnerability });
      },
    };
    const scanTarget: ScanTarget = {
      id: target._id, name: target.name, url: target.url, scan_mode: target.scan_mode, api_format: target.api_format,
      // opened only here, in memory, for the length of the scan
      api_key: target.api_key_encrypted ? secrets.open(target.api_key_encrypted) : null,
      model: target.model, canaries: target.canaries, browser: target.browser, http: target.http, max_requests_per_second: target.max_requests_per_second,
      headers: openHeaders(secrets, target.headers_encrypted), sensitive: openSensitive(secrets, target.sensitive_encrypted), stream: target.stream ?? false,
      tools: openTools(secrets, target.tools),
    };
    // the scan's budget, as its request recorded it: the target's meter refuses what would cross it; the models' are counted apart
    const budget = writer.state.budget ?? null;
    const meters: ScanMeters = { target: new SpendMeter(budget), ...(config.attacker && { attacker: new SpendMeter() }), ...(config.judge && { judge: new SpendMeter() }) };
    const log = this.deps.log.child({ scan_id: job.scan_id });
    const driver = createChatDriver(scanTarget, {
      allowPrivate: config.outboundAllowPrivate, chromiumPath: config.chromiumPath, operationTimeoutMs: config.browserOperationTimeoutMs, navigationTimeoutMs: config.browserNavigationTimeoutMs, concurrency: concurrencyFor(job.profile),
      callbacks: proxyCallbackHook(this.deps.callbacks.listener, config.callbackBaseUrl), meter: meters.target, log,
    });
    log.info({ target_id: target._id, profile: job.profile }, 'scan started');
    const startedAt = this.deps.now().getTime();
    try {
      const outcome = await runScan({
        scanId: job.scan_id, target: scanTarget, profile: job.profile, selection: job.selection,
        // the target's id, not the scan's: the same target is sent the same prompts and variants every time, so an unchanged target gives the same findings
        seed: target._id, driver, sink, signal: abort.signal, now: this.deps.now, allowPrivate: config.outboundAllowPrivate,
        // optional models, only ever contacted when the operator configured them
        ...(config.judge && { judge: createLlmJudge({ ...config.judge, meter: meters.judge }) }),
        ...(config.attacker && { attacker: createLlmAttacker({ ...config.attacker, meter: meters.attacker }) }),
        callbacks: { baseUrl: config.callbackBaseUrl, ...(config.callbackDomain && { domain: config.callbackDomain }), key: callbackKey(config.secretsKey), inbox: this.deps.callbacks.inbox },
        budget, meters, known: (await knownOfTarget(docs, target._id, job.profile, job.selection, job.scan_id)) ?? undefined,
      });
      await this.recordSpending(writer, meters, (this.deps.now().getTime() - startedAt) / 1000, log);
      const ending = await this.ending(job.scan_id, runOutcome(outcome));
      await end(ending.command);
      log.info({ outcome: outcome.kind, score: ending.score.overall_score, findings: ending.findings }, 'scan ended');
    } catch (err) {
      await this.recordSpending(writer, meters, (this.deps.now().getTime() - startedAt) / 1000, log);
      if (!isTerminal(writer.state.status)) {
        log.error({ err }, 'scan crashed');
        await end((await this.ending(job.scan_id, { kind: 'crashed' })).command);
      }
    } finally {
      clearInterval(heartbeat);
      await driver.close().catch(() => undefined);
      await claims.release(job.scan_id);
    }
  }

  /** what the run spent, on the scan's stream once its run is over (whatever ended it); a failure to write it ends nothing */
  private async recordSpending(writer: ScanWriter, meters: ScanMeters, seconds: number, log: Logger): Promise<void> {
    const spending: ScanSpending = {
      target: meters.target.usage, ...(meters.target.retries > 0 && { retries: meters.target.retries }),
      ...(meters.attacker && { attacker: meters.attacker.usage }), ...(meters.judge && { judge: meters.judge.usage }), seconds: Math.round(seconds * 10) / 10,
    };
    try {
      await writer.handle({ type: 'RecordSpending', spending, now: this.iso() });
    } catch (err) {
      if (!(err instanceof DomainError)) log.error({ err }, 'recording what the scan spent failed');
    }
  }

  /**
   * The command that ends a scan, scored from what its events hold (the attempts and findings
   * recorded), whoever ends it: the scanner running it or another one reaping it.
   */
  private async ending(scanId: string, outcome: ScanRunOutcome): Promise<{ command: ScanCommand; score: ScanScore; findings: number }> {
    const { attempts, vulnerabilities } = await this.deps.history.record(scanId);
    const score = scoreScan({ attempts, vulnerabilities });
    return { command: scanEnding(outcome, { score, attempts: attempts.length, now: this.iso() }), score, findings: vulnerabilities.length };
  }

  /** ends running scans whose scanner stopped renewing its lease (never one this scanner runs) */
  async reap(isMine: (scanId: string) => boolean): Promise<number> {
    const { docs, claims, writePath } = this.deps;
    const runningScans = await docs.collection<ScanDoc>('scans').find({ status: 'running' }, { limit: 500 });
    let reaped = 0;
    for (const scan of runningScans) {
      if (isMine(scan._id)) continue;
      const lease = await claims.lease(scan._id);
      if (!leaseExpired(scan, lease, this.deps.now().getTime(), claims.leaseMs)) continue;
      const { command } = await this.ending(scan._id, { kind: 'lease_expired' });
      try {
        await writePath.decide(scanDecider, streams.scan(scan._id), command, { actor: claims.actor, correlationId: scan._id });
        reaped++;
        this.deps.log.warn({ scan_id: scan._id, lease_worker: lease?.worker_id }, 'ended a scan whose worker was lost');
      } catch (err) {
        if (!(err instanceof DomainError)) throw err; // ended meanwhile
      }
      await claims.release(scan._id);
    }
    return reaped;
  }
}
