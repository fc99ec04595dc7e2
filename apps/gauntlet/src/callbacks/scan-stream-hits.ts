import { OutOfBandHit, scanDecider, streams } from '@gauntlet/domain';
import { CallbackInbox, CallbackListener, callbackKey, HitRecorder } from '@gauntlet/scanner';
import type { Logger } from 'pino';
import type { Runtime } from '../runtime';
import type { ScanHistory } from '../scans/scan-history';
import type { WritePath } from '../platform/write-path';

/** a burst of hits on one scan contends with its scanner's writes: a few more rounds than the default */
const WRITE_ATTEMPTS = 8;

/**
 * The callback listener's two ports over the scan's stream: a hit is the RecordOutOfBandHit
 * command through the write path (the scan decider bounds it per token and marks one after the
 * scan ended), and a scan's hits are its OutOfBandHit events, read from the log (so a scanner in
 * another process hears what this one's listener recorded).
 */
export class ScanStreamHits implements HitRecorder, CallbackInbox {
  constructor(private readonly writePath: WritePath, private readonly history: ScanHistory) {}

  async record(hit: OutOfBandHit): Promise<void> {
    await this.writePath.decide(scanDecider, streams.scan(hit.scan_id), { type: 'RecordOutOfBandHit', hit }, { actor: 'callback-listener', correlationId: hit.scan_id }, { attempts: WRITE_ATTEMPTS });
  }

  async hits(scanId: string): Promise<OutOfBandHit[]> {
    return (await this.history.read(scanId)).filter((e) => e.type === 'OutOfBandHit').map((e) => (e.data as { hit: OutOfBandHit }).hit);
  }
}

/** The service's listener: tokens verified with the key derived from SECRETS_KEY, hits recorded on their scans. */
export function callbackListener(runtime: Runtime, hits: HitRecorder, log: Logger = runtime.log): CallbackListener {
  return new CallbackListener({
    key: callbackKey(runtime.config.secretsKey), baseUrl: runtime.config.callbackBaseUrl, domain: runtime.config.callbackDomain, recorder: hits, now: () => runtime.clock.now(),
    onError: (err) => log.warn({ err }, 'a callback hit could not be recorded'),
  });
}
