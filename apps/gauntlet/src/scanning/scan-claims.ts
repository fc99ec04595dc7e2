import { DomainError, ScanCommand, scanDecider, ScanEvent, ScanLease, ScanState, streams } from '@gauntlet/domain';
import type { DocumentStore } from '@gauntlet/read-models';
import type { StreamWriter, WritePath } from '../platform/write-path';

interface LeaseDoc extends ScanLease {
  _id: string;
  [k: string]: unknown;
}

const LEASES = 'scan_leases';

export type ScanWriter = StreamWriter<ScanCommand, ScanEvent, ScanState>;

/**
 * The claim/lease adapter: claiming a scan is the StartScan command on its stream (only one
 * scanner's append can win); a lease document, renewed while the scan runs, tells the other
 * scanners this one is alive. Whether a lease has run out is the domain's rule (leaseExpired).
 */
export class ScanClaims {
  constructor(
    private readonly writePath: WritePath,
    private readonly docs: DocumentStore,
    readonly workerId: string,
    readonly leaseMs: number,
    private readonly now: () => Date,
  ) {}

  private get leases() {
    return this.docs.collection<LeaseDoc>(LEASES);
  }

  get actor(): string {
    return `worker:${this.workerId}`;
  }

  ensureIndexes(): Promise<void> {
    return this.leases.ensureIndex(['worker_id']);
  }

  /** the scan's writer once this scanner holds it; null when it was no longer pending or another scanner won */
  async claim(scanId: string): Promise<ScanWriter | null> {
    const writer = await this.writePath.open(scanDecider, streams.scan(scanId), { actor: this.actor, correlationId: scanId });
    if (writer.state.status !== 'pending') return null; // a redelivered job, already claimed or ended
    await this.renew(scanId);
    try {
      await writer.handle({ type: 'StartScan', worker_id: this.workerId, now: this.now().toISOString() });
    } catch (err) {
      await this.release(scanId);
      if (err instanceof DomainError) return null; // another worker won
      throw err;
    }
    return writer;
  }

  renew(scanId: string): Promise<void> {
    return this.leases.put({ _id: scanId, worker_id: this.workerId, expires_at: this.now().getTime() + this.leaseMs });
  }

  release(scanId: string): Promise<void> {
    return this.leases.delete(scanId);
  }

  async lease(scanId: string): Promise<ScanLease | null> {
    const doc = await this.leases.get(scanId);
    return doc && { worker_id: doc.worker_id, expires_at: doc.expires_at };
  }
}
