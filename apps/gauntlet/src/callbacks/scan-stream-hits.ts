import { OutOfBandHit, scanDecider, streams } from '@gauntlet/domain';
import { CallbackInbox, CallbackListener, callbackKey, HitRecorder } from '@gauntlet/scanner';
import type { Logger } from 'pino';
import type { Runtime } from '../runtime';
import type { ScanHistory } from '../scans/scan-history';
import type { WritePath } from '../platform/write-path';

/** a burst of hits on one scan contends with its scanner's writes: a few more rounds than the default */
const WRITE_ATTEMPTS = 8;
/** scans whose hits are remembered between reads (a scanner runs a few at once) */
const SCANS_REMEMBERED = 32;

/**
 * The callback listener's two ports over the scan's stream: a hit is the RecordOutOfBandHit
 * command through the write path (the scan decider bounds it per token and marks one after the
 * scan ended), and a scan's hits are its OutOfBandHit events, read from the log (so a scanner in
 * another process hears what this one's listener recorded). A running scan asks again and again
 * (its live count): each read takes only the events after the last one it saw.
 */
export class ScanStreamHits implements HitRecorder, CallbackInbox {
  private readonly seen = new Map<string, { from: number; hits: OutOfBandHit[] }>();

  constructor(private readonly writePath: WritePath, private readonly history: ScanHistory) {}

  async record(hit: OutOfBandHit): Promise<void> {
    await this.writePath.decide(scanDecider, streams.scan(hit.scan_id), { type: 'RecordOutOfBandHit', hit }, { actor: 'callback-listener', correlationId: hit.scan_id }, { attempts: WRITE_ATTEMPTS });
  }

  async hits(scanId: string): Promise<OutOfBandHit[]> {
    const known = this.seen.get(scanId) ?? { from: 0, hits: [] };
    const events = await this.history.read(scanId, known.from);
    const next = {
      from: events.length ? events[events.length - 1].revision + 1 : known.from,
      hits: [...known.hits, ...events.filter((e) => e.type === 'OutOfBandHit').map((e) => (e.data as { hit: OutOfBandHit }).hit)],
    };
    // the most recently read last: the oldest scan is forgotten first
    this.seen.delete(scanId);
    this.seen.set(scanId, next);
    if (this.seen.size > SCANS_REMEMBERED) this.seen.delete(this.seen.keys().next().value!);
    return next.hits;
  }
}

/** The service's listener: tokens verified with the key derived from SECRETS_KEY, hits recorded on their scans. */
export function callbackListener(runtime: Runtime, hits: HitRecorder, log: Logger = runtime.log): CallbackListener {
  return new CallbackListener({
    key: callbackKey(runtime.config.secretsKey), baseUrl: runtime.config.callbackBaseUrl, domain: runtime.config.callbackDomain, recorder: hits, now: () => runtime.clock.now(),
    onError: (err) => log.warn({ err }, 'a callback hit could not be recorded'),
  });
}
