import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { scoreScan } from '@gauntlet/assessment';
import { DomainError, isTerminal, ProbeAttempt, ScanCommand, scanDecider, ScanEvent, ScanState, streams, Vulnerability } from '@gauntlet/domain';
import type { Consumer, DeliveredMessage } from '@gauntlet/messaging';
import type { ScanDoc, TargetDoc } from '@gauntlet/read-models';
import { concurrencyFor, createChatDriver, createLlmAttacker, createLlmJudge, runScan, ScanSink, ScanTarget } from '@gauntlet/scanner';
import { StreamWriter } from '../platform/aggregates';
import { openHeaders } from '../targets/target-secrets';
import { Runtime } from '../runtime';
import { ScanJob, SCAN_JOBS_TOPIC } from './scan-jobs';

interface LeaseDoc {
  _id: string;
  worker_id: string;
  expires_at: number;
  [k: string]: unknown;
}

const LEASES = 'scan_leases';

/** Limits how many scans one worker runs at once; the bus consumer waits for a free slot. */
class Slots {
  private waiting: (() => void)[] = [];
  constructor(private free: number) {}
  async take(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

/**
 * Claims scan jobs from the bus and runs them. Claiming is the StartScan command (only one
 * worker's append can win); a lease, renewed while the scan runs, tells the others this worker
 * is alive. A scan whose worker dies (lease expired) is ended completed_partial with what it had
 * found, by whichever worker's reaper sees it first: we chose ending over resuming because a
 * half-run conversation with a target cannot be resumed faithfully.
 */
export class ScanWorker {
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private consumer: Consumer | null = null;
  private reaper: NodeJS.Timeout | null = null;
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private readonly slots: Slots;

  constructor(private readonly runtime: Runtime, private readonly options: { concurrency: number; leaseMs?: number } = { concurrency: 2 }) {
    this.slots = new Slots(options.concurrency);
  }

  private get leaseMs() {
    return this.options.leaseMs ?? 15_000;
  }

  private get log() {
    return this.runtime.log.child({ component: 'scanner', worker: this.workerId });
  }

  async start(): Promise<void> {
    const { bus } = this.runtime.infra;
    await bus.ensureTopics([SCAN_JOBS_TOPIC]);
    await this.runtime.infra.documents.collection(LEASES).ensureIndex(['worker_id']);
    this.consumer = await bus.consume([SCAN_JOBS_TOPIC], { group: 'scanners' }, (m) => this.onJob(m));
    this.reaper = setInterval(() => void this.reap().catch((err) => this.log.error({ err }, 'lease reaper failed')), Math.max(200, this.leaseMs / 2));
  }

  private async onJob(message: DeliveredMessage): Promise<void> {
    const job = JSON.parse(message.value) as ScanJob;
    await this.slots.take();
    let writer: StreamWriter<ScanCommand, ScanEvent, ScanState> | null = null;
    try {
      writer = await this.claim(job.scan_id);
    } finally {
      if (!writer) this.slots.give();
    }
    if (!writer) return;
    // the job is claimed and leased: the offset can move on while the scan runs
    const abort = new AbortController();
    const done = this.run(writer, job, abort)
      .catch((err) => this.log.error({ err, scan_id: job.scan_id }, 'scan ended with an internal error'))
      .finally(() => {
        this.running.delete(job.scan_id);
        this.slots.give();
      });
    this.running.set(job.scan_id, { abort, done });
  }

  private async claim(scanId: string) {
    const writer = await this.runtime.aggregates.open(scanDecider, streams.scan(scanId), { actor: `worker:${this.workerId}`, correlationId: scanId });
    if (writer.state.status !== 'pending') return null; // a redelivered job, already claimed or ended
    await this.renewLease(scanId);
    try {
      await writer.handle({ type: 'StartScan', worker_id: this.workerId, now: new Date().toISOString() });
    } catch (err) {
      await this.dropLease(scanId);
      if (err instanceof DomainError) return null; // another worker won
      throw err;
    }
    return writer;
  }

  private renewLease(scanId: string) {
    return this.runtime.infra.documents.collection<LeaseDoc>(LEASES).put({ _id: scanId, worker_id: this.workerId, expires_at: Date.now() + this.leaseMs });
  }

  private dropLease(scanId: string) {
    return this.runtime.infra.documents.collection(LEASES).delete(scanId);
  }

  private async run(writer: StreamWriter<ScanCommand, ScanEvent, ScanState>, job: ScanJob, abort: AbortController): Promise<void> {
    const { config, infra, secrets } = this.runtime;
    const now = () => new Date().toISOString();
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
        await this.renewLease(job.scan_id);
        const doc = await infra.documents.collection<ScanDoc>('scans').get(job.scan_id);
        if (doc?.status === 'cancelled') abort.abort();
      } catch (err) {
        this.log.error({ err, scan_id: job.scan_id }, 'lease renewal failed');
      }
    }, Math.max(100, this.leaseMs / 3));

    const target = await infra.documents.collection<TargetDoc>('targets').get(job.target_id);
    if (!target || target.deleted) {
      clearInterval(heartbeat);
      await end({ type: 'FailScan', reason: 'The target was deleted before the scan started.', now: now() });
      await this.dropLease(job.scan_id);
      return;
    }

    const attempts: ProbeAttempt[] = [];
    const vulnerabilities: Vulnerability[] = [];
    const sink: ScanSink = {
      enterPhase: async (phase, progress) => void (await writer.handle({ type: 'EnterPhase', phase, progress, now: now() })),
      recordAttempt: async (attempt, progress) => {
        await writer.handle({ type: 'RecordProbeAttempt', attempt, progress, now: now() });
        attempts.push(attempt);
      },
      recordVulnerability: async (vulnerability) => {
        await writer.handle({ type: 'RecordVulnerability', vulnerability });
        vulnerabilities.push(vulnerability);
      },
    };
    const scanTarget: ScanTarget = {
      id: target._id, name: target.name, url: target.url, scan_mode: target.scan_mode, api_format: target.api_format,
      // opened only here, in memory, for the length of the scan
      api_key: target.api_key_encrypted ? secrets.open(target.api_key_encrypted) : null,
      model: target.model, canaries: target.canaries, browser: target.browser, http: target.http, max_requests_per_second: target.max_requests_per_second,
      headers: openHeaders(secrets, target.headers_encrypted), stream: target.stream ?? false,
    };
    const driver = createChatDriver(scanTarget, { allowPrivate: config.outboundAllowPrivate, chromiumPath: config.chromiumPath, concurrency: concurrencyFor(job.profile) });
    const log = this.log.child({ scan_id: job.scan_id });
    log.info({ target_id: target._id, profile: job.profile }, 'scan started');
    try {
      const outcome = await runScan({
        scanId: job.scan_id, target: scanTarget, profile: job.profile, seed: job.scan_id, driver, sink, signal: abort.signal, now: () => new Date(),
        // optional models, only ever contacted when the operator configured them
        ...(config.judge && { judge: createLlmJudge(config.judge) }),
        ...(config.attacker && { attacker: createLlmAttacker(config.attacker) }),
      });
      const score = scoreScan({ attempts, vulnerabilities });
      if (outcome.kind === 'completed') await end({ type: 'CompleteScan', score, now: now() });
      else if (outcome.kind === 'completed_partial') await end({ type: 'CompleteScanPartially', reason: outcome.reason, score, now: now() });
      else if (outcome.kind === 'failed') await end({ type: 'FailScan', reason: outcome.reason, now: now() });
      // aborted without a cancel by the user: this worker is shutting down
      else await end({ type: 'CompleteScanPartially', reason: 'The scanner was stopped during the scan; the findings recorded so far are kept.', score, now: now() });
      log.info({ outcome: outcome.kind, score: score.overall_score, findings: vulnerabilities.length }, 'scan ended');
    } catch (err) {
      if (!isTerminal(writer.state.status)) {
        log.error({ err }, 'scan crashed');
        const reason = 'The scanner hit an internal error; the findings recorded so far are kept.';
        await end(attempts.length ? { type: 'CompleteScanPartially', reason, score: scoreScan({ attempts, vulnerabilities }), now: now() } : { type: 'FailScan', reason, now: now() });
      }
    } finally {
      clearInterval(heartbeat);
      await driver.close().catch(() => undefined);
      await this.dropLease(job.scan_id);
    }
  }

  /** ends running scans whose worker stopped renewing its lease */
  async reap(): Promise<number> {
    const docs = this.runtime.infra.documents;
    const runningScans = await docs.collection<ScanDoc>('scans').find({ status: 'running' }, { limit: 500 });
    let reaped = 0;
    for (const scan of runningScans) {
      if (this.running.has(scan._id)) continue;
      const lease = await docs.collection<LeaseDoc>(LEASES).get(scan._id);
      const startedLongAgo = scan.started_at !== null && Date.parse(scan.started_at) < Date.now() - 2 * this.leaseMs;
      if (lease ? lease.expires_at > Date.now() : !startedLongAgo) continue;
      const history = await this.runtime.infra.events.readStream(streams.scan(scan._id));
      const attempts = history.filter((e) => e.type === 'ProbeAttempted').map((e) => e.data.attempt as ProbeAttempt);
      const vulnerabilities = history.filter((e) => e.type === 'VulnerabilityFound').map((e) => e.data.vulnerability as Vulnerability);
      try {
        await this.runtime.aggregates.handle(
          scanDecider,
          streams.scan(scan._id),
          { type: 'CompleteScanPartially', reason: 'The scanner running this scan stopped (its lease expired); the findings recorded so far are kept.', score: scoreScan({ attempts, vulnerabilities }), now: new Date().toISOString() },
          { actor: `worker:${this.workerId}`, correlationId: scan._id },
        );
        reaped++;
        this.log.warn({ scan_id: scan._id, lease_worker: lease?.worker_id }, 'ended a scan whose worker was lost');
      } catch (err) {
        if (!(err instanceof DomainError)) throw err; // ended meanwhile
      }
      await docs.collection(LEASES).delete(scan._id);
    }
    return reaped;
  }

  async stop(): Promise<void> {
    if (this.reaper) clearInterval(this.reaper);
    await this.consumer?.stop();
    for (const { abort } of this.running.values()) abort.abort();
    await Promise.all([...this.running.values()].map((r) => r.done));
  }
}
