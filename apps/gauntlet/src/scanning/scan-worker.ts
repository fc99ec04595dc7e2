import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { leaseTimings } from '@gauntlet/domain';
import type { Consumer, DeliveredMessage } from '@gauntlet/messaging';
import type { ScanDoc } from '@gauntlet/read-models';
import type { Runtime } from '../runtime';
import { callbackListener, ScanStreamHits } from '../callbacks/scan-stream-hits';
import { ScanHistory } from '../scans/scan-history';
import { ScanClaims, ScanWriter } from './scan-claims';
import { ScanJob, SCAN_JOBS_TOPIC } from './scan-jobs';
import { ScanProcess } from './scan-process';

/** How many scans one worker runs at once. */
class Slots {
  constructor(private free: number) {}
  get available(): number {
    return this.free;
  }
  tryTake(): boolean {
    if (this.free <= 0) return false;
    this.free--;
    return true;
  }
  give(): void {
    this.free++;
  }
}

/** how often an idle worker looks for pending scans no free worker was told about */
const PULL_EVERY_MS = 1000;
/** pending scans looked at per pull, oldest first */
const PULL_BATCH = 20;

/**
 * The scanner role: claims pending scans (ScanClaims: only one scanner's StartScan can win) while
 * it has free slots, and hands each to the process manager (ScanProcess), which runs it and ends
 * it; now and then it has the process manager end scans whose scanner was lost.
 *
 * Work goes to whichever worker has room, not to whichever owns the job's partition: a job from
 * the bus is only a wake-up. A worker with a free slot claims the scan at once; a full worker lets
 * the message go (it never holds a partition, or a group rebalance, while its scans run), and every
 * worker with a free slot pulls the oldest pending scans from the read model when a scan of its
 * own ends and once a second. That is what lets a second worker double the throughput instead of
 * waiting on the jobs that hashed to the first one's partitions.
 */
export class ScanWorker {
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private consumer: Consumer | null = null;
  private reaper: NodeJS.Timeout | null = null;
  private poller: NodeJS.Timeout | null = null;
  private pulling: Promise<void> | null = null;
  private stopped = false;
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private readonly slots: Slots;
  private readonly claims: ScanClaims;
  private readonly manager: ScanProcess;
  private readonly log;

  constructor(private readonly runtime: Runtime, options: { concurrency: number; leaseMs?: number } = { concurrency: 2 }) {
    this.slots = new Slots(options.concurrency);
    const now = () => runtime.clock.now();
    this.log = runtime.log.child({ component: 'scanner', worker: this.workerId });
    this.claims = new ScanClaims(runtime.writePath, runtime.infra.documents, this.workerId, options.leaseMs ?? 15_000, now);
    const hits = new ScanStreamHits(runtime.writePath, new ScanHistory(runtime.infra.events));
    this.manager = new ScanProcess({
      writePath: runtime.writePath, claims: this.claims, docs: runtime.infra.documents, history: new ScanHistory(runtime.infra.events),
      secrets: runtime.secrets, config: runtime.config, log: this.log, now, callbacks: { inbox: hits, listener: callbackListener(runtime, hits, this.log) },
    });
  }

  async start(): Promise<void> {
    const { bus } = this.runtime.infra;
    await bus.ensureTopics([SCAN_JOBS_TOPIC]);
    await this.claims.ensureIndexes();
    this.consumer = await bus.consume([SCAN_JOBS_TOPIC], { group: 'scanners' }, (m) => this.onJob(m));
    this.reaper = setInterval(() => void this.reap().catch((err) => this.log.error({ err }, 'lease reaper failed')), leaseTimings(this.claims.leaseMs).reapEveryMs);
    this.poller = setInterval(() => void this.pull(), PULL_EVERY_MS);
  }

  private async onJob(message: DeliveredMessage): Promise<void> {
    const job = JSON.parse(message.value) as ScanJob;
    if (this.stopped || this.running.has(job.scan_id)) return;
    // full: the scan stays pending for the first worker with room (see pull)
    if (!this.slots.tryTake()) return;
    await this.begin(job);
  }

  /** claims the scan with a slot already taken, and runs it; false (the slot given back) when another worker has it */
  private async begin(job: ScanJob): Promise<boolean> {
    let writer: ScanWriter | null = null;
    try {
      writer = await this.claims.claim(job.scan_id);
    } finally {
      if (!writer) this.slots.give();
    }
    if (!writer) return false;
    // the job is claimed and leased: the offset can move on while the scan runs
    const abort = new AbortController();
    const done = this.manager
      .run(writer, job, abort)
      .catch((err) => this.log.error({ err, scan_id: job.scan_id }, 'scan ended with an internal error'))
      .finally(() => {
        this.running.delete(job.scan_id);
        this.slots.give();
        void this.pull();
      });
    this.running.set(job.scan_id, { abort, done });
    return true;
  }

  /** while slots are free, claims the oldest pending scans (one pull at a time per worker) */
  pull(): Promise<void> {
    if (this.stopped || this.slots.available <= 0) return Promise.resolve();
    this.pulling ??= this.pullPending()
      .catch((err) => this.log.error({ err }, 'looking for pending scans failed'))
      .finally(() => (this.pulling = null));
    return this.pulling;
  }

  private async pullPending(): Promise<void> {
    const scans = this.runtime.infra.documents.collection<ScanDoc>('scans');
    while (!this.stopped && this.slots.available > 0) {
      const pending = (await scans.find({ status: 'pending' }, { sort: { field: 'created_at', direction: 'asc' }, limit: PULL_BATCH })).filter((d) => !this.running.has(d._id));
      if (!pending.length) return;
      // workers pulling together start at different places in the list, so they rarely race for one scan
      const offset = Math.floor(Math.random() * pending.length);
      let started = 0;
      for (let i = 0; i < pending.length && !this.stopped; i++) {
        const d = pending[(offset + i) % pending.length];
        if (!this.slots.tryTake()) return;
        if (await this.begin({ scan_id: d._id, account_id: d.account_id, target_id: d.target_id, profile: d.profile, ...(d.selection && { selection: d.selection }) })) started++;
      }
      if (!started) return;
    }
  }

  /** ends running scans whose worker stopped renewing its lease */
  reap(): Promise<number> {
    return this.manager.reap((scanId) => this.running.has(scanId));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reaper) clearInterval(this.reaper);
    if (this.poller) clearInterval(this.poller);
    await this.pulling;
    await this.consumer?.stop();
    for (const { abort } of this.running.values()) abort.abort();
    await Promise.all([...this.running.values()].map((r) => r.done));
  }
}
