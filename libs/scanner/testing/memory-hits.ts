import type { OutOfBandHit } from '@gauntlet/domain';
import type { HitRecorder } from '../src/callbacks/listener';
import type { CallbackInbox } from '../src/callbacks/planting';

/** The scan's stream as far as hits go, in memory: what the listener recorded is what the engine hears. */
export class MemoryHits implements HitRecorder, CallbackInbox {
  recorded: OutOfBandHit[] = [];
  async record(hit: OutOfBandHit) {
    this.recorded.push(hit);
  }
  async hits(scanId: string) {
    return this.recorded.filter((h) => h.scan_id === scanId);
  }
}
