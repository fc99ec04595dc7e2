// Preloaded into every node process of a traced run (NODE_OPTIONS=--require this file): each
// attempt to reach a host that is not this machine (a TCP/TLS connection, a UDP send, a DNS
// lookup) is written to the file NO_NETWORK_LOG names and refused. The package spec runs npm's
// install, the packages' install scripts and the CLI under it, to prove none of them calls out.
'use strict';
const fs = require('node:fs');
const net = require('node:net');
const dns = require('node:dns');
const dgram = require('node:dgram');

const log = process.env.NO_NETWORK_LOG;
const LOCAL = /^(localhost|127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/i;

function refuse(what) {
  if (log) fs.appendFileSync(log, `${process.pid} ${process.argv.slice(1).join(' ').slice(0, 200)}: ${what}\n`);
  const e = new Error(`network call refused by the trace: ${what}`);
  e.code = 'ECONNREFUSED';
  return e;
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const opts = typeof args[0] === 'object' && args[0] !== null ? (Array.isArray(args[0]) ? args[0][0] : args[0]) : { port: args[0], host: args[1] };
  const host = opts && (opts.host ?? 'localhost');
  if (opts && !opts.path && host && !LOCAL.test(String(host))) {
    const err = refuse(`connect ${host}:${opts.port}`);
    process.nextTick(() => this.destroy(err));
    return this;
  }
  return connect.apply(this, args);
};

for (const name of ['lookup', 'resolve', 'resolve4', 'resolve6']) {
  const original = dns[name];
  dns[name] = function (host, ...rest) {
    if (LOCAL.test(String(host))) return original.call(this, host, ...rest);
    const cb = rest.find((a) => typeof a === 'function');
    const err = refuse(`dns ${name} ${host}`);
    if (cb) process.nextTick(() => cb(err));
    else throw err;
  };
}
const lookupAsync = dns.promises.lookup;
dns.promises.lookup = function (host, ...rest) {
  return LOCAL.test(String(host)) ? lookupAsync.call(this, host, ...rest) : Promise.reject(refuse(`dns lookup ${host}`));
};

const send = dgram.Socket.prototype.send;
dgram.Socket.prototype.send = function (...args) {
  const address = args.find((a, i) => i > 0 && typeof a === 'string');
  if (address && !LOCAL.test(address)) throw refuse(`udp send ${address}`);
  return send.apply(this, args);
};
