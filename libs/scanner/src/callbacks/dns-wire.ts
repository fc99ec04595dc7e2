import { isIPv4, isIPv6 } from 'node:net';

/**
 * The little of the DNS wire format (RFC 1035) the callback listener's DNS side needs: the question
 * of a query, read defensively from untrusted bytes, and an answer to it. Nothing else is parsed
 * (the other sections of a query, an EDNS OPT record, are ignored) and nothing is ever forwarded.
 */

/** a query longer than this is not one a resolver sends for one name: dropped unread */
export const MAX_QUERY_BYTES = 1232;
const HEADER = 12;
const MAX_NAME_BYTES = 255;
const MAX_LABEL = 63;

export const RCODE = { noError: 0, formErr: 1, serverFailure: 2, notImp: 4, refused: 5 } as const;
export const RTYPE = { A: 1, MX: 15, AAAA: 28, ANY: 255 } as const;
const CLASS_IN = 1;
const CLASS_ANY = 255;
const TYPE_NAMES: Record<number, string> = { 1: 'A', 2: 'NS', 5: 'CNAME', 6: 'SOA', 12: 'PTR', 15: 'MX', 16: 'TXT', 28: 'AAAA', 33: 'SRV', 65: 'HTTPS', 255: 'ANY' };

/** a record type as people write it: `A`, `MX`, else `TYPE<n>` (RFC 3597) */
export const typeName = (type: number): string => TYPE_NAMES[type] ?? `TYPE${type}`;

/** A query's one question, as read. */
export interface DnsQuestion {
  id: number;
  /** the query's recursion-desired bit, echoed in the answer (recursion is never offered) */
  recursionDesired: boolean;
  /** the name, labels joined with dots, as it came (case kept); bytes outside [A-Za-z0-9_-] written \DDD */
  name: string;
  type: number;
  klass: number;
  /** the question section's bytes, echoed in the answer as they came */
  raw: Buffer;
}

/**
 * What a packet is: a query with one question; `malformed`, a query that cannot be answered but
 * whose id can (answered FORMERR, or NOTIMP for another opcode); null, nothing to answer (too
 * short or long, a response, not a query at all).
 */
export type ReadQuery = { kind: 'query'; question: DnsQuestion } | { kind: 'malformed'; id: number; rcode: number; recursionDesired: boolean } | null;

export function readQuery(packet: Buffer): ReadQuery {
  if (packet.length < HEADER || packet.length > MAX_QUERY_BYTES) return null;
  const id = packet.readUInt16BE(0);
  const flags = packet.readUInt16BE(2);
  // a response is never answered: two listeners could otherwise bounce packets forever
  if (flags & 0x8000) return null;
  const recursionDesired = (flags & 0x0100) !== 0;
  const malformed = (rcode: number) => ({ kind: 'malformed' as const, id, rcode, recursionDesired });
  if (((flags >> 11) & 0xf) !== 0) return malformed(RCODE.notImp);
  if (packet.readUInt16BE(4) !== 1) return malformed(RCODE.formErr);
  const labels: string[] = [];
  let at = HEADER;
  let size = 1;
  for (;;) {
    if (at >= packet.length) return malformed(RCODE.formErr);
    const len = packet[at];
    if (len === 0) break;
    // no compression pointers in a question, no label types beyond plain ones
    if (len > MAX_LABEL || at + 1 + len > packet.length) return malformed(RCODE.formErr);
    size += len + 1;
    if (size > MAX_NAME_BYTES) return malformed(RCODE.formErr);
    labels.push(labelText(packet.subarray(at + 1, at + 1 + len)));
    at += 1 + len;
  }
  at += 1;
  if (at + 4 > packet.length) return malformed(RCODE.formErr);
  const type = packet.readUInt16BE(at);
  const klass = packet.readUInt16BE(at + 2);
  return { kind: 'query', question: { id, recursionDesired, name: labels.join('.'), type, klass, raw: Buffer.from(packet.subarray(HEADER, at + 4)) } };
}

function labelText(bytes: Buffer): string {
  let out = '';
  for (const b of bytes) out += (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x2d || b === 0x5f ? String.fromCharCode(b) : `\\${String(b).padStart(3, '0')}`;
  return out;
}

/** whether a question's class is one the listener answers in (IN, or ANY) */
export const internetClass = (q: Pick<DnsQuestion, 'klass'>): boolean => q.klass === CLASS_IN || q.klass === CLASS_ANY;

/** A record the listener answers with, for the question's own name. */
export type DnsRecord = { type: typeof RTYPE.A; address: string } | { type: typeof RTYPE.AAAA; address: string } | { type: typeof RTYPE.MX; preference: number };

/** the 16 bytes of an IPv6 address (with `::` and a trailing IPv4 part) */
function ipv6Bytes(address: string): Buffer {
  let text = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1].split('.').map(Number);
    text = `${text.slice(0, -v4[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === null ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}

function rdata(record: DnsRecord): Buffer {
  if (record.type === RTYPE.A) return Buffer.from(record.address.split('.').map(Number));
  if (record.type === RTYPE.AAAA) return ipv6Bytes(record.address);
  // the exchange is the asked name itself (a pointer to the question's name): its address is ours too
  const out = Buffer.alloc(4);
  out.writeUInt16BE(record.preference, 0);
  out.writeUInt16BE(0xc000 | HEADER, 2);
  return out;
}

/** whether an address can be answered with: an IPv4 or IPv6 literal */
export const answerableAddress = (address: string): boolean => isIPv4(address) || (isIPv6(address) && !address.includes('%'));

/**
 * The answer to a query: its id, the question echoed (when there was one), `rcode`, authoritative
 * for names under the listener's domain, recursion never available, the records for the asked
 * name with a TTL of 0 (every lookup is a fresh one). Small and fixed: never larger than a few
 * times the question, so it amplifies nothing.
 */
export function answerTo(query: { id: number; recursionDesired: boolean; raw?: Buffer }, rcode: number, options: { authoritative?: boolean; records?: readonly DnsRecord[] } = {}): Buffer {
  const records = (options.records ?? []).map((r) => {
    const data = rdata(r);
    const rr = Buffer.alloc(12 + data.length);
    rr.writeUInt16BE(0xc000 | HEADER, 0);
    rr.writeUInt16BE(r.type, 2);
    rr.writeUInt16BE(CLASS_IN, 4);
    rr.writeUInt32BE(0, 6);
    rr.writeUInt16BE(data.length, 10);
    data.copy(rr, 12);
    return rr;
  });
  const header = Buffer.alloc(HEADER);
  header.writeUInt16BE(query.id, 0);
  header.writeUInt16BE(0x8000 | (options.authoritative ? 0x0400 : 0) | (query.recursionDesired ? 0x0100 : 0) | (rcode & 0xf), 2);
  header.writeUInt16BE(query.raw ? 1 : 0, 4);
  header.writeUInt16BE(query.raw ? records.length : 0, 6);
  return Buffer.concat([header, query.raw ?? Buffer.alloc(0), ...(query.raw ? records : [])]);
}
