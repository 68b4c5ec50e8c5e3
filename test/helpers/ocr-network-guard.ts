// A preload (`node --require`) that records every attempt to reach the network outside the
// loopback interface, in every thread of the process (--require also runs in worker threads,
// which is where the OCR engine lives), and makes the attempt fail.

import fs from 'node:fs';
import path from 'node:path';

const GUARD_SOURCE = String.raw`'use strict';
const { threadId } = require('node:worker_threads');
const fs = require('node:fs');
const net = require('node:net');
const dns = require('node:dns');
const dgram = require('node:dgram');
const LOG = process.env.DOCWASM_NET_GUARD_LOG;
const record = (line) => fs.appendFileSync(LOG, line + '\n');
const isLoopback = (host) => host === 'localhost' || /^127\./.test(host) || host === '::1' || host === '::ffff:127.0.0.1';
const refuse = (what, host) => {
  record('ATTEMPT ' + what + ' ' + host + ' thread=' + threadId);
  throw new Error('network use forbidden by the test guard: ' + what + ' ' + host);
};
record('armed thread=' + threadId);

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  let options = args[0];
  if (Array.isArray(options)) options = options[0];
  if (typeof options !== 'object' || options === null) options = { port: args[0], host: args[1] };
  if (!options.path && !isLoopback(String(options.host ?? 'localhost'))) refuse('connect', options.host + ':' + options.port);
  return connect.apply(this, args);
};
for (const name of ['lookup', 'resolve', 'resolve4', 'resolve6', 'resolveAny']) {
  for (const target of [dns, dns.promises]) {
    const original = target[name];
    target[name] = function (host, ...rest) {
      if (!isLoopback(String(host))) refuse('dns.' + name, host);
      return original.call(this, host, ...rest);
    };
  }
}
const send = dgram.Socket.prototype.send;
dgram.Socket.prototype.send = function (...args) {
  const host = args.find((a, i) => i > 0 && typeof a === 'string');
  if (host && !isLoopback(host)) refuse('udp', host);
  return send.apply(this, args);
};
`;

export interface NetworkGuard {
  /** Pass as NODE_OPTIONS. */
  nodeOptions: string;
  env: Record<string, string>;
  /** Lines written so far: `armed thread=N` per thread, `ATTEMPT …` per refused attempt. */
  lines(): string[];
}

export function writeNetworkGuard(dir: string): NetworkGuard {
  const preload = path.join(dir, 'network-guard.cjs');
  const log = path.join(dir, 'network-guard.log');
  fs.writeFileSync(preload, GUARD_SOURCE);
  fs.writeFileSync(log, '');
  return {
    nodeOptions: `--require=${preload}`,
    env: { NODE_OPTIONS: `--require=${preload}`, DOCWASM_NET_GUARD_LOG: log },
    lines: () => fs.readFileSync(log, 'utf8').split('\n').filter(Boolean),
  };
}
