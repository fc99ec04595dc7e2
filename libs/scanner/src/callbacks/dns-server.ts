import { createSocket, RemoteInfo, Socket } from 'node:dgram';
import { isIPv4, isIPv6 } from 'node:net';
import type { CallbackListener } from './listener';
import { answerableAddress, answerTo, DnsRecord, internetClass, RCODE, readQuery, RTYPE, typeName } from './dns-wire';

/** lookups answered at once at most: past this a query is dropped (a resolver asks again) */
const MAX_IN_FLIGHT = 64;

export interface CallbackDnsOptions {
  /** where it listens (default 127.0.0.1) and on which UDP port (0: a free one) */
  host?: string;
  port?: number;
  /** the addresses a planted name resolves to (A for IPv4, AAAA for IPv6): where the HTTP listener is reachable; none: the lookup is heard, nothing resolves */
  answers?: readonly string[];
}

export interface CallbackDnsServer {
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/** the records that answer a planted name, for the type asked */
function recordsFor(type: number, answers: readonly string[]): DnsRecord[] {
  const v4 = answers.filter((a) => isIPv4(a)).map((address) => ({ type: RTYPE.A, address }) as const);
  const v6 = answers.filter((a) => isIPv6(a)).map((address) => ({ type: RTYPE.AAAA, address }) as const);
  if (type === RTYPE.A) return v4;
  if (type === RTYPE.AAAA) return v6;
  // a mail system asking where to deliver is told: to this same name (whose address is ours)
  if (type === RTYPE.MX) return answers.length ? [{ type: RTYPE.MX, preference: 10 }] : [];
  if (type === RTYPE.ANY) return [...v4, ...v6];
  return [];
}

/**
 * The callback listener's DNS side, over UDP: a lookup of a name under the callback domain that
 * carries a planted token is a hit (CallbackListener.lookup records it, within its limits) and
 * resolves to the configured addresses; another name under the domain answers with no records
 * (never NXDOMAIN: a resolver minimising its query asks for the token's last label alone first, and
 * a "does not exist" there would hide the whole name); a name outside it is REFUSED. It never
 * recurses or forwards, never answers a response, drops what it cannot read, and answers a query it
 * cannot parse FORMERR. Closed, socket and all, by `close`.
 */
export async function startCallbackDns(listener: Pick<CallbackListener, 'lookup'>, options: CallbackDnsOptions = {}): Promise<CallbackDnsServer> {
  const host = options.host ?? '127.0.0.1';
  const answers = (options.answers ?? []).filter(answerableAddress);
  const socket: Socket = createSocket({ type: isIPv6(host) ? 'udp6' : 'udp4' });
  let inFlight = 0;
  const send = (packet: Buffer, to: RemoteInfo) => socket.send(packet, to.port, to.address, () => undefined);

  socket.on('message', (packet, from) => {
    const read = readQuery(packet);
    if (!read) return;
    if (read.kind === 'malformed') return send(answerTo(read, read.rcode), from);
    const q = read.question;
    if (!internetClass(q)) return send(answerTo(q, RCODE.refused), from);
    if (inFlight >= MAX_IN_FLIGHT) return;
    inFlight++;
    void listener
      .lookup({ name: q.name, type: typeName(q.type), source: from.address })
      .then((verdict) => {
        if (!verdict) return;
        if (verdict.kind === 'refused') return send(answerTo(q, RCODE.refused), from);
        send(answerTo(q, RCODE.noError, { authoritative: true, records: verdict.planted ? recordsFor(q.type, answers) : [] }), from);
      })
      .catch(() => send(answerTo(q, RCODE.serverFailure), from))
      .finally(() => inFlight--);
  });
  // a send to a closed port, a packet too large: the next query is answered all the same
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(options.port ?? 0, host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  const bound = socket.address();
  return {
    host: bound.address,
    port: bound.port,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
