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
  const fields = {
    data: e.data ?? null,
    metadata: e.metadata ?? {},
    recordedAt: e.recordedAt,
    revision: e.revision,
    streamId: e.streamId,
    type: e.type,
  };
  const sorted = sortedJson(fields);
  const text = sorted === NOT_PLAIN ? canonicalize(fields) : JSON.stringify(sorted);
  if (text === undefined) throw new Error('Event cannot be canonicalised');
  return text;
}

const NOT_PLAIN = Symbol('not plain JSON');
/** keys V8 enumerates in numeric order whatever the insertion order, so a sorted copy cannot sort them */
const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;

/**
 * A copy of plain JSON with every object's keys in JCS order (UTF-16 code units). For such a
 * value JSON.stringify writes exactly the JCS text (same string escaping, same number format),
 * natively and about three times faster than the canonicalize package, which is what the chain
 * digest of a big scan spends its time on. Anything else (non-finite numbers, toJSON, undefined
 * or non-JSON values, array-index keys) answers NOT_PLAIN and goes through canonicalize.
 */
function sortedJson(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : NOT_PLAIN;
    case 'object': {
      if (value === null) return null;
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return NOT_PLAIN;
      if (Array.isArray(value)) {
        const out = new Array(value.length);
        for (let i = 0; i < value.length; i++) if ((out[i] = sortedJson(value[i])) === NOT_PLAIN) return NOT_PLAIN;
        return out;
      }
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value).sort()) {
        if (ARRAY_INDEX.test(key)) return NOT_PLAIN;
        if ((out[key] = sortedJson((value as Record<string, unknown>)[key])) === NOT_PLAIN) return NOT_PLAIN;
      }
      return out;
    }
    default:
      return NOT_PLAIN;
  }
}

export function nextLink(previous: string, e: ChainEvent): string {
  return createHash('sha256').update(previous, 'utf8').update(canonicalEvent(e), 'utf8').digest('hex');
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
