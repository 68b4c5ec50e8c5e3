// The WebAssembly office's process has no network by construction: this module runs first in
// every thread of it (node --import, which Node applies to worker threads too — Emscripten's
// pthreads are worker threads) and leaves no way to a socket. Node's permission model does not
// restrict the network (Node 20: `net.connect` worked under the office's exact flags), and the
// office's glue reaches for a socket layer of its own (Emscripten's SOCKFS `require`s `ws`): so
// the socket layer itself is sealed here, whatever packages are installed.
//
// - Every socket Node can open goes through `net.Socket#connect` or `net.Server#listen` (TCP,
//   and TLS, HTTP, HTTP/2, WebSocket and fetch on top of them) or `dgram.Socket` (UDP): those
//   throw. DNS lookups (a name is itself a message out) throw.
// - `require` of `ws` and of Node's network modules throws (Emscripten's SOCKFS fails at once
//   with "host unreachable" rather than building a WebSocket); fetch, WebSocket, XMLHttpRequest
//   and EventSource are removed from the globals.
// - A worker thread may only be started from a file: Node preloads this module into those, not
//   into a worker made from a string of code (`eval`) or a data: URL.

import dgram from 'node:dgram';
import dns from 'node:dns';
import Module, { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import workerThreads, { Worker } from 'node:worker_threads';

/** What a network attempt throws inside the office. */
const NO_NETWORK = 'the WebAssembly office has no network';

const refused = (what: string) =>
  function refuse(): never {
    throw new Error(`${NO_NETWORK} (${what} refused)`);
  };

/** Modules `require` may not load in the office: the `ws` package and Node's own network modules. */
const NETWORK_MODULES = new Set(['ws', ...['net', 'tls', 'dgram', 'dns', 'dns/promises', 'http', 'https', 'http2'].flatMap((name) => [name, `node:${name}`])]);

function sealSockets(): void {
  net.Socket.prototype.connect = refused('net.Socket#connect');
  net.Server.prototype.listen = refused('net.Server#listen');
  for (const method of ['bind', 'connect', 'send'] as const) dgram.Socket.prototype[method] = refused(`dgram.Socket#${method}`);
  for (const api of [dns, dns.promises, dns.Resolver.prototype, dns.promises.Resolver.prototype] as unknown as Record<string, unknown>[]) {
    for (const name of Object.getOwnPropertyNames(api)) if (typeof api[name] === 'function' && name !== 'constructor') api[name] = refused(`dns.${name}`);
  }
}

function sealRequire(): void {
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = loader._load;
  loader._load = function loadUnlessNetwork(request: string, ...rest: unknown[]): unknown {
    if (NETWORK_MODULES.has(request)) refused(`require('${request}')`)();
    return load.call(this, request, ...rest);
  };
}

/** Worker threads from files only (where Node runs this module first); what Emscripten starts its pthreads with. */
function sealWorkers(): void {
  const fromFile = (script: string | URL, options?: { eval?: boolean }) =>
    !options?.eval && (typeof script === 'string' ? !/^data:/i.test(script) : script.protocol === 'file:');
  const SealedWorker = class extends Worker {
    constructor(script: string | URL, options?: ConstructorParameters<typeof Worker>[1]) {
      if (!fromFile(script, options)) refused('a worker thread not started from a file')();
      super(script, options);
    }
  };
  (workerThreads as { Worker: typeof Worker }).Worker = SealedWorker;
}

function removeNetworkGlobals(): void {
  for (const name of ['fetch', 'WebSocket', 'XMLHttpRequest', 'EventSource']) Reflect.deleteProperty(globalThis, name);
}

sealSockets();
sealWorkers();
// `import { lookup } from 'node:dns'` anywhere later gets the sealed function too.
syncBuiltinESMExports();
sealRequire();
removeNetworkGlobals();
