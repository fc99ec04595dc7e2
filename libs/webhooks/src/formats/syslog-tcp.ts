import { lookup as dnsLookup } from 'node:dns';
import { connect, isIP, type Socket } from 'node:net';
import { refusalReason, OutboundRefusedError, type OutboundPolicy } from '@gauntlet/outbound';
import { octetCountedFrame } from './syslog';

/**
 * Sends RFC 5424 messages to a SIEM's syslog TCP listener with RFC 6587 octet counting, through
 * the same address policy as every other outbound connection (checked after DNS).
 */
export class SyslogTcpSender {
  private socket: Socket | null = null;

  constructor(private readonly target: { host: string; port: number }, private readonly policy: OutboundPolicy, private readonly timeoutMs = 10_000) {}

  private open(): Promise<Socket> {
    if (this.socket && !this.socket.destroyed) return Promise.resolve(this.socket);
    const { host, port } = this.target;
    const policy = this.policy;
    return new Promise((resolve, reject) => {
      if (isIP(host)) {
        const reason = refusalReason(host, policy);
        if (reason) return reject(new OutboundRefusedError(host, reason));
      }
      const socket = connect({
        host,
        port,
        timeout: this.timeoutMs,
        lookup: (hostname, opts, cb) =>
          dnsLookup(hostname, { ...opts, all: false }, (err, address, family) => {
            if (err) return cb(err, address, family);
            const reason = refusalReason(address, policy);
            if (reason) return cb(new OutboundRefusedError(hostname, reason) as unknown as NodeJS.ErrnoException, address, family);
            cb(null, address, family);
          }),
      });
      socket.once('connect', () => {
        socket.setTimeout(0);
        this.socket = socket;
        resolve(socket);
      });
      socket.once('timeout', () => socket.destroy(new Error(`syslog connect to ${host}:${port} timed out`)));
      socket.once('error', reject);
      socket.on('close', () => {
        if (this.socket === socket) this.socket = null;
      });
    });
  }

  /** resolves once the frame is handed to the kernel */
  async send(message: string): Promise<void> {
    const socket = await this.open();
    await new Promise<void>((resolve, reject) => socket.write(octetCountedFrame(message), (err) => (err ? reject(err) : resolve())));
  }

  async close(): Promise<void> {
    const socket = this.socket;
    this.socket = null;
    if (socket) await new Promise<void>((resolve) => socket.end(resolve));
  }
}
