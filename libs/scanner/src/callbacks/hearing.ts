import { setTimeout as sleep } from 'node:timers/promises';
import type { ProvenWeakness } from '@gauntlet/domain';
import { callbackFindings, HeardHits, HeldByTarget } from './callback-findings';
import { CallbackPlanting, DEFAULT_CALLBACK_GRACE_MS } from './planting';

/**
 * The findings requests to the scan's planted addresses prove, heard before analysis, and the
 * requests a chat page made from our own message (no finding: the scan says it): when the scan
 * planted any, it first waits a short bounded time (graceMs) for requests still on their way (an
 * agent's second fetch, a page's image), then reads the hits recorded for the scan. Nothing
 * planted: nothing waited for. A failed read is no finding, never a failed scan.
 */
export async function hearCallbacks(planting: CallbackPlanting | null, scanId: string, held: HeldByTarget, stop: AbortSignal): Promise<HeardHits> {
  const none: HeardHits = { findings: [], ownMessage: [] };
  if (!planting || planting.attempts.length === 0) return none;
  const { setup } = planting;
  // a stopped scan waits no longer, but still reads what was heard
  await sleep(setup.graceMs ?? DEFAULT_CALLBACK_GRACE_MS, undefined, { signal: stop }).catch(() => undefined);
  try {
    return callbackFindings(scanId, planting.attempts, await setup.inbox.hits(scanId), setup.key, held);
  } catch {
    return none;
  }
}

/**
 * What the scan says of requests a chat page made from our own message as it showed it: the page
 * renders what users type (markdown or HTML), which loaded the addresses we planted in our own
 * messages; recorded on the scan, in no finding. Null when there were none.
 */
export function ownMessageNote(hits: HeardHits['ownMessage']): string | null {
  if (!hits.length) return null;
  const probes = [...new Set(hits.map((h) => h.probeId))].sort();
  return `The chat page renders what users type: showing our own messages, it loaded ${hits.length === 1 ? 'an address' : `${hits.length} addresses`} Gauntlet planted in them (${probes.join(', ')}). Those requests are recorded on the scan; they prove nothing about the answers and are in no finding.`;
}

/** how often, at most, a running scan reads the hits recorded for it (besides right after an attempt that planted) */
export const DEFAULT_CALLBACK_TALLY_MS = 5_000;

/**
 * The weaknesses requests to the scan's planted addresses prove while it runs, so a hit that lands
 * mid-scan is in the live count (findings_so_far, the running list) with the next attempt recorded,
 * not only once the findings are written. Reads the scan's hits right after an attempt that planted
 * (an agent fetches within its turn) and otherwise at most every `everyMs`; one read at a time; a
 * failed read counts nothing. The findings themselves are still made once, by hearCallbacks.
 */
export class CallbackTally {
  private readonly counted = new Set<string>();
  private fresh: ProvenWeakness[] = [];
  private lastRead = -Infinity;
  private reading: Promise<void> | null = null;

  constructor(private readonly planting: CallbackPlanting, private readonly scanId: string, private readonly held: HeldByTarget, private readonly everyMs = DEFAULT_CALLBACK_TALLY_MS) {}

  /** the weaknesses heard first since the last call: awaited when `now` is right after a planting attempt, else read in the background */
  async heard(now: number, planted: boolean): Promise<ProvenWeakness[]> {
    if (this.planting.attempts.length && (planted || now - this.lastRead >= this.everyMs)) {
      this.lastRead = now;
      const read = (this.reading ??= this.read().finally(() => (this.reading = null)));
      if (planted) await read;
    }
    const fresh = this.fresh;
    this.fresh = [];
    return fresh;
  }

  /** of these fingerprints (the findings book's), how many weaknesses were heard beyond them */
  beyond(known: (fingerprint: string) => boolean): number {
    let n = 0;
    for (const f of this.counted) if (!known(f)) n++;
    return n;
  }

  private async read(): Promise<void> {
    try {
      const { setup } = this.planting;
      for (const v of callbackFindings(this.scanId, this.planting.attempts, await setup.inbox.hits(this.scanId), setup.key, this.held).findings) {
        if (this.counted.has(v.fingerprint)) continue;
        this.counted.add(v.fingerprint);
        this.fresh.push({ fingerprint: v.fingerprint, probe_id: v.probe_id, category: v.category, category_name: v.category_name, title: v.title });
      }
    } catch {
      /* a failed read counts nothing now; the next one, or the findings, will */
    }
  }
}
