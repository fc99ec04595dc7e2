import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/** One recorded event of a scan's stream, as the event store returns it (minus its global position). */
export interface ChainEvent {
  streamId: string;
  revision: number;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  recordedAt: string;
}

/** A line of the audit export: the event's fields plus the chain link that covers it. */
export interface AuditLine extends ChainEvent {
  chain_sha256: string;
}

export type ChainVerification =
  | { ok: true; event_count: number; chain_sha256: string }
  | { ok: false; index: number; reason: string };

/** link_0: fixed, so an empty history still has a digest and every chain starts the same way. */
export const CHAIN_GENESIS = createHash('sha256').update('gauntlet-audit-chain/v1', 'utf8').digest('hex');

/**
 * RFC 8785 (JCS) text of the event's six fields. Only these fields are covered: anything else a
 * store attaches (global position, ids) differs between adapters and would break replays.
 */
export function canonicalEvent(e: ChainEvent): string {
  const text = canonicalize({
    streamId: e.streamId,
    revision: e.revision,
    type: e.type,
    data: e.data ?? null,
    metadata: e.metadata ?? {},
    recordedAt: e.recordedAt,
  });
  if (text === undefined) throw new Error('Event cannot be canonicalised');
  return text;
}

export function nextLink(previous: string, e: ChainEvent): string {
  return createHash('sha256').update(previous + canonicalEvent(e), 'utf8').digest('hex');
}

/** link_1..link_n for the events in log order. */
export function chainLinks(events: readonly ChainEvent[]): string[] {
  const links: string[] = [];
  let link = CHAIN_GENESIS;
  for (const e of events) links.push((link = nextLink(link, e)));
  return links;
}

/** The last link: the digest compliance evidence quotes. */
export function chainDigest(events: readonly ChainEvent[]): string {
  let link = CHAIN_GENESIS;
  for (const e of events) link = nextLink(link, e);
  return link;
}

/** NDJSON, one event per line with its link, newline-terminated; what GET /api/scans/{id}/events streams. */
export function toAuditNdjson(events: readonly ChainEvent[]): string {
  let link = CHAIN_GENESIS;
  let out = '';
  for (const e of events) {
    link = nextLink(link, e);
    const line: AuditLine = {
      streamId: e.streamId, revision: e.revision, type: e.type, data: e.data ?? null,
      metadata: e.metadata ?? {}, recordedAt: e.recordedAt, chain_sha256: link,
    };
    out += JSON.stringify(line) + '\n';
  }
  return out;
}

/**
 * Replays an export. Every line must carry the link recomputed from the lines before it, and
 * revisions of a stream must follow one another. Dropping the last lines leaves a shorter, valid
 * chain, so pass the expected count or digest (from the compliance evidence) to catch that too.
 * The index is 0-based: the first line that does not verify.
 */
export function verifyChain(
  ndjson: string | readonly string[],
  expected: { event_count?: number; chain_sha256?: string } = {},
): ChainVerification {
  const lines = (typeof ndjson === 'string' ? ndjson.split('\n') : [...ndjson]).filter((l) => l.trim() !== '');
  let link = CHAIN_GENESIS;
  const lastRevision = new Map<string, number>();
  for (let index = 0; index < lines.length; index++) {
    let line: AuditLine;
    try {
      line = JSON.parse(lines[index]);
    } catch {
      return { ok: false, index, reason: 'not valid JSON' };
    }
    if (!line || typeof line !== 'object' || typeof line.chain_sha256 !== 'string') {
      return { ok: false, index, reason: 'no chain_sha256 link' };
    }
    const previous = lastRevision.get(line.streamId);
    if (previous !== undefined && line.revision !== previous + 1) {
      return { ok: false, index, reason: `revision ${line.revision} follows ${previous} in ${line.streamId}` };
    }
    lastRevision.set(line.streamId, line.revision);
    link = nextLink(link, line);
    if (link !== line.chain_sha256) return { ok: false, index, reason: 'chain link does not match the content' };
  }
  if (expected.event_count !== undefined && lines.length !== expected.event_count) {
    return { ok: false, index: Math.min(lines.length, expected.event_count), reason: `expected ${expected.event_count} events, found ${lines.length}` };
  }
  if (expected.chain_sha256 !== undefined && link !== expected.chain_sha256) {
    return { ok: false, index: lines.length, reason: 'final link differs from the expected digest' };
  }
  return { ok: true, event_count: lines.length, chain_sha256: link };
}
