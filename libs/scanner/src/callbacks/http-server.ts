import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { MAX_HIT_BYTES } from '@gauntlet/domain';
import { CallbackListener } from './listener';

/** Where every callback server mounts the listener: `/oob/<token>`. */
export const CALLBACK_MOUNT = '/oob';
/** Longest a sender may take over one request (headers and body): slow senders are cut off. */
export const CALLBACK_DEADLINE_MS = 5_000;
/** Bytes of a body read (and dropped past MAX_HIT_BYTES) before the request is answered anyway. */
const MAX_DRAINED = 64 * 1024;

/**
 * The start of a request body: at most `keep` bytes are kept, the rest is read and dropped up to
 * `drain` bytes, and whatever is still coming after `deadlineMs` (or past `drain`) is not waited
 * for. Never rejects: a body cut short is what arrived.
 */
export function readBoundedBody(stream: Readable, keep = MAX_HIT_BYTES, deadlineMs = CALLBACK_DEADLINE_MS, drain = MAX_DRAINED): Promise<Buffer> {
  return new Promise((resolve) => {
    const kept: Buffer[] = [];
    let size = 0;
    let seen = 0;
    const finish = () => {
      clearTimeout(timer);
      stream.off('data', onData).off('end', finish).off('error', finish).off('close', finish);
      resolve(Buffer.concat(kept).subarray(0, keep));
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (size < keep) {
        kept.push(chunk);
        size += chunk.length;
      }
      if (seen > drain) {
        stream.pause();
        finish();
      }
    };
    const timer = setTimeout(() => {
      stream.pause();
      finish();
    }, deadlineMs);
    stream.on('data', onData).once('end', finish).once('error', finish).once('close', finish);
  });
}

export interface CallbackServer {
  /** `http://host:port`: the listener answers under `${url}/oob/` */
  readonly url: string;
  close(): Promise<void>;
}

const sourceOf = (req: IncomingMessage) => req.socket.remoteAddress ?? 'unknown';

/** the listener as a server needs it: answering, and (with a callback domain) telling its host names */
export type CallbackServing = Pick<CallbackListener, 'answer'> & Partial<Pick<CallbackListener, 'hearsHost'>>;

/**
 * What a server hands the listener: a request to a host under the callback domain with its whole
 * path (the token is in the name), one under `/oob/` with the path after it; null for anything
 * else (answered 404 at once).
 */
export function callbackRequestOf(listener: CallbackServing, url: string, host: string | undefined): { url: string; host?: string } | null {
  if (host && listener.hearsHost?.(host)) return { url, host };
  return url.startsWith(`${CALLBACK_MOUNT}/`) ? { url: url.slice(CALLBACK_MOUNT.length) } : null;
}

/**
 * A plain HTTP server for the listener (the CLI's, where no service runs): `/oob/<token>`, and any
 * path of a host under the callback domain, go to the listener; every other request answers 404
 * at once. Requests have a deadline; the server is closed, with its connections, by `close`.
 */
export async function startCallbackServer(listener: CallbackServing, host = '127.0.0.1', port = 0): Promise<CallbackServer> {
  const server: Server = createServer({ requestTimeout: CALLBACK_DEADLINE_MS, headersTimeout: CALLBACK_DEADLINE_MS }, (req, res) => {
    const url = req.url ?? '/';
    const asked = callbackRequestOf(listener, url, req.headers.host);
    if (!asked) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end('Not found\n');
      req.resume();
      return;
    }
    void (async () => {
      const body = req.method === 'POST' ? await readBoundedBody(req) : null;
      const answer = await listener.answer({ method: req.method ?? 'GET', ...asked, source: sourceOf(req), headers: req.headers, body });
      // a body not read to its end is dropped with the connection
      res.writeHead(answer.status, { ...answer.headers, ...(!req.complete && { connection: 'close' }) }).end(answer.body);
      if (!req.complete) res.once('finish', () => req.destroy());
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  server.maxHeadersCount = 50;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
