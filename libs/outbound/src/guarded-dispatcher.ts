import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, buildConnector, Dispatcher } from 'undici';
import { OutboundPolicy, refusalReason } from './address-policy';
import { ownListenerRefusal } from './own-listeners';

export class OutboundRefusedError extends Error {
  readonly code = 'OUTBOUND_REFUSED';
  constructor(readonly host: string, readonly reason: string) {
    super(`Refused to connect to ${host}: ${reason}`);
    this.name = 'OutboundRefusedError';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** why `address` may not be connected to on `port`: the policy's ranges, then our own listeners */
function addressRefusal(address: string, policy: OutboundPolicy, port: number | undefined): string | null {
  return refusalReason(address, policy) ?? (port === undefined ? null : ownListenerRefusal(address, port));
}

/**
 * A `lookup` for net.connect / http.request / undici that resolves, then refuses when any
 * address the name resolves to is not allowed. Checking every address (not just the first)
 * stops a name that mixes a public and a private address. With `port`, the process's own
 * listeners are refused too, whatever the policy allows.
 */
export function guardedLookup(policy: OutboundPolicy, port?: number) {
  return (hostname: string, opts: { all?: boolean } | number | undefined, callback: LookupCallback) => {
    dnsLookup(hostname, { all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as LookupAddress[];
      for (const a of list) {
        const reason = addressRefusal(a.address, policy, port);
        if (reason) return callback(new OutboundRefusedError(hostname, reason) as unknown as NodeJS.ErrnoException, []);
      }
      if (typeof opts === 'object' && opts?.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

/** the refusal for a host that is an IP literal (those never reach `lookup`), or null */
export function literalHostRefusal(hostname: string, policy: OutboundPolicy, port?: number): OutboundRefusedError | null {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (!isIP(host)) return null;
  const reason = addressRefusal(host, policy, port);
  return reason ? new OutboundRefusedError(host, reason) : null;
}

/**
 * Every outbound connection (targets, webhooks, alert webhooks) goes through this dispatcher.
 * The address is checked after DNS resolution, on the very address the socket connects to,
 * so a name that resolves to a public address at registration and to 127.0.0.1 later (DNS
 * rebinding) is still refused.
 */
export function guardedDispatcher(policy: OutboundPolicy, options: { connectTimeoutMs?: number; keepAlive?: boolean } = {}): Dispatcher {
  // one connector per destination port: the lookup that checks an address needs the port too
  const connectors = new Map<number, buildConnector.connector>();
  const connectorFor = (port: number) => {
    let connect = connectors.get(port);
    if (!connect) connectors.set(port, (connect = buildConnector({ lookup: guardedLookup(policy, port), timeout: options.connectTimeoutMs ?? 10_000 } as buildConnector.BuildOptions)));
    return connect;
  };
  return new Agent({
    connect: (opts, callback) => {
      const port = Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80);
      const refused = literalHostRefusal(opts.hostname, policy, port);
      if (refused) return callback(refused, null);
      return connectorFor(port)(opts, callback);
    },
    ...(options.keepAlive === false ? { pipelining: 0 } : {}),
  });
}

/** true when an error (possibly wrapped by fetch as `cause`) is a refusal by the guard */
export function isOutboundRefusal(err: unknown): err is OutboundRefusedError {
  for (let e: any = err; e; e = e.cause) if (e instanceof OutboundRefusedError || e?.code === 'OUTBOUND_REFUSED') return true;
  return false;
}
