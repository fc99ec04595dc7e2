import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { leaseTimings } from '@gauntlet/domain';
import type { Consumer, DeliveredMessage } from '@gauntlet/messaging';
import type { Runtime } from '../runtime';
import { ScanHistory } from '../scans/scan-history';
import { ScanClaims, ScanWriter } from './scan-claims';
import { ScanJob, SCAN_JOBS_TOPIC } from './scan-jobs';
import { ScanProcess } from './scan-process';

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
 * The scanner role's bus consumer: takes scan jobs from the bus as slots free up, claims each
 * (ScanClaims) and hands it to the process manager (ScanProcess), which runs it and ends it; now
 * and then it has the process manager end scans whose scanner was lost.
 */
export class ScanWorker {
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private consumer: Consumer | null = null;
  private reaper: NodeJS.Timeout | null = null;
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private readonly slots: Slots;
  private readonly claims: ScanClaims;
  private readonly manager: ScanProcess;
  private readonly log;

  constructor(private readonly runtime: Runtime, options: { concurrency: number; leaseMs?: number } = { concurrency: 2 }) {
    this.slots = new Slots(options.concurrency);
    const now = () => runtime.clock.now();
    this.log = runtime.log.child({ component: 'scanner', worker: this.workerId });
    this.claims = new ScanClaims(runtime.commands, runtime.infra.documents, this.workerId, options.leaseMs ?? 15_000, now);
    this.manager = new ScanProcess({
      commands: runtime.commands, claims: this.claims, docs: runtime.infra.documents, history: new ScanHistory(runtime.infra.events),
      secrets: runtime.secrets, config: runtime.config, log: this.log, now,
    });
  }

  async start(): Promise<void> {
    const { bus } = this.runtime.infra;
    await bus.ensureTopics([SCAN_JOBS_TOPIC]);
    await this.claims.ensureIndexes();
    this.consumer = await bus.consume([SCAN_JOBS_TOPIC], { group: 'scanners' }, (m) => this.onJob(m));
    this.reaper = setInterval(() => void this.reap().catch((err) => this.log.error({ err }, 'lease reaper failed')), leaseTimings(this.claims.leaseMs).reapEveryMs);
  }

  private async onJob(message: DeliveredMessage): Promise<void> {
    const job = JSON.parse(message.value) as ScanJob;
    await this.slots.take();
    let writer: ScanWriter | null = null;
    try {
      writer = await this.claims.claim(job.scan_id);
    } finally {
      if (!writer) this.slots.give();
    }
    if (!writer) return;
    // the job is claimed and leased: the offset can move on while the scan runs
    const abort = new AbortController();
    const done = this.manager
      .run(writer, job, abort)
      .catch((err) => this.log.error({ err, scan_id: job.scan_id }, 'scan ended with an internal error'))
      .finally(() => {
        this.running.delete(job.scan_id);
        this.slots.give();
      });
    this.running.set(job.scan_id, { abort, done });
  }

  /** ends running scans whose worker stopped renewing its lease */
  reap(): Promise<number> {
    return this.manager.reap((scanId) => this.running.has(scanId));
  }

  async stop(): Promise<void> {
    if (this.reaper) clearInterval(this.reaper);
    await this.consumer?.stop();
    for (const { abort } of this.running.values()) abort.abort();
    await Promise.all([...this.running.values()].map((r) => r.done));
  }
}
