// The WebAssembly office has no network by construction and reads only its own files and the
// fonts (CONTRACT.md, Refinements v0.5; docs/security.md). The office's host is started exactly as
// the service starts it (WasmOffice: its flags, its preload, its permissions), with a probe in
// place of the Emscripten glue that tries the network and files from inside and reports what it
// got. The network is tried with a `ws` package resolvable (a fake one that connects): the socket
// layer itself refuses, not a missing package. A loopback listener run here must see no connection.

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledCjkFonts } from '../../src/documents/profile.js';
import { officeV8Flags } from '../../src/wasm-office/wasm-office-engine.js';
import { findWasmOffice } from '../../core/wasm-office-package.js';
import { ROOT, tempDir } from '../helpers/service.js';

const found = findWasmOffice();
if (!found.found) throw new Error(`the WebAssembly office must be installed for these tests: ${found.reason}`);
const files = found.files;
const SEAL = path.join(ROOT, 'dist/wasm/office/no-network.js');
/** The built office, as the service starts it (from source, tests run its host under tsx without permissions). */
const { WasmOffice } = (await import(
  pathToFileURL(path.join(ROOT, 'dist/src/wasm-office/wasm-office.js')).href
)) as typeof import('../../src/wasm-office/wasm-office.js');
const NO_NETWORK = /the WebAssembly office has no network/;

/** A fake `ws` whose WebSocket opens a TCP connection to `port`, as the real one would. */
function fakeWs(dir: string, port: number): string {
  const pkg = path.join(dir, 'node_modules', 'ws');
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'ws', version: '8.0.0', main: 'index.js' }));
  fs.writeFileSync(
    path.join(pkg, 'index.js'),
    `module.exports = class WebSocket { constructor() { this.socket = require('net').connect(${port}, '127.0.0.1'); } };\n`,
  );
  return pkg;
}

/**
 * The probe: a glue stand-in (it carries the pool expression docwasm checks for) that tries each
 * way out and reports the results as the office's start failure.
 */
function probeGlue(port: number, reads: Record<string, string>): string {
  return `function initMainThread(){var pthreadPoolSize=8;return pthreadPoolSize}
const { workerData, parentPort } = require('worker_threads');
if (workerData === 'probe') {
  try { require('net').connect(${port}, '127.0.0.1'); parentPort.postMessage('allowed'); } catch (e) { parentPort.postMessage(e.message); }
  return;
}
const results = {};
const attempt = (name, fn) => { try { fn(); results[name] = 'allowed'; } catch (e) { results[name] = String(e.code ?? '') + ' ' + e.message; } };
attempt('require ws', () => new (require('ws'))('ws://127.0.0.1:${port}/'));
attempt('require net', () => require('net').connect(${port}, '127.0.0.1'));
attempt('require http', () => require('http').get('http://127.0.0.1:${port}/'));
attempt('require dgram', () => require('dgram').createSocket('udp4').send('x', ${port}, '127.0.0.1'));
attempt('net.Socket from stderr', () => new process.stderr.constructor().connect(${port}, '127.0.0.1'));
attempt('fetch', () => fetch('http://127.0.0.1:${port}/'));
attempt('tcp binding', () => process.binding('tcp_wrap'));
for (const [name, file] of Object.entries(${JSON.stringify(reads)})) attempt('read ' + name, () => require('fs').readFileSync(file));
const { Worker } = require('worker_threads');
attempt('an eval worker thread', () => new Worker('0', { eval: true }));
// The same probe file as a worker thread (as Emscripten starts its pthreads): it tries net there and answers.
const worker = new Worker(__filename, { workerData: 'probe' });
worker.once('message', (message) => { results['net in a worker thread'] = message; process.send({ type: 'failed', message: JSON.stringify(results) }); });
`;
}

describe('the WebAssembly office process (its host as the service starts it, a probe for its glue)', () => {
  let listener: net.Server;
  let port: number;
  let connections = 0;
  let results: Record<string, string>;
  const font = bundledCjkFonts()[0] as string;
  // In a git worktree .git is a file, in a clone a directory: HEAD is in either.
  const gitHead = fs.statSync(path.join(ROOT, '.git')).isDirectory() ? path.join(ROOT, '.git', 'HEAD') : path.join(ROOT, '.git');

  beforeAll(async () => {
    listener = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as net.AddressInfo).port;
    const dir = tempDir('docwasm-wasm-confinement-');
    fakeWs(dir, port);
    const glue = path.join(dir, 'glue.cjs');
    fs.writeFileSync(
      glue,
      probeGlue(port, {
        font,
        'the git HEAD': gitHead,
        "docwasm's package.json": path.join(ROOT, 'package.json'),
        "another package's file": path.join(ROOT, 'node_modules/hono/package.json'),
      }),
    );
    const office = new WasmOffice({ entry: files.entry, wasmDir: files.wasmDir, glue, fonts: [font], cjkFaces: [], profile: {} }, await officeV8Flags());
    try {
      const message = await office.ready.then(
        () => '{}',
        (err: unknown) => (err instanceof Error ? err.message : String(err)),
      );
      results = JSON.parse(message) as Record<string, string>;
    } finally {
      await office.stop();
    }
    // Any connection the probe started has had time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }, 120_000);
  afterAll(async () => {
    await new Promise((resolve) => listener?.close(resolve));
  });

  it('has no network: the socket layer refuses every way out, with a `ws` package resolvable', () => {
    for (const way of [
      'require ws',
      'require net',
      'require http',
      'require dgram',
      'net.Socket from stderr',
      'an eval worker thread',
      'net in a worker thread',
    ]) {
      expect(results[way], `${way}: ${JSON.stringify(results)}`).toMatch(NO_NETWORK);
    }
    expect(results.fetch).toMatch(/fetch is not defined/);
    expect(results['tcp binding']).toMatch(/ERR_ACCESS_DENIED/);
    expect(connections).toBe(0);
  });

  it('reads the fonts but no file of the install outside its own (the git HEAD, package files)', () => {
    expect(results['read font']).toBe('allowed');
    for (const file of ['the git HEAD', "docwasm's package.json", "another package's file"])
      expect(results[`read ${file}`], file).toMatch(/^ERR_ACCESS_DENIED/);
  });
});

describe('the network seal (wasm/office/no-network.ts) in a plain Node', () => {
  it('refuses `ws` and a socket even where `ws` resolves and nothing else restricts the process', async () => {
    const listener = net.createServer();
    let connections = 0;
    listener.on('connection', (socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as net.AddressInfo;
    try {
      const dir = tempDir('docwasm-no-network-');
      const ws = fakeWs(dir, port);
      const probe = `const out = [];
for (const step of [() => require('ws'), () => new (require(${JSON.stringify(path.join(ws, 'index.js'))}))(), () => new process.stdout.constructor().connect(${port}, '127.0.0.1'), () => require('dns').lookup('localhost', () => undefined)]) {
  try { step(); out.push('allowed'); } catch (e) { out.push(e.message); }
}
console.log(JSON.stringify(out));`;
      // NODE_PATH makes `ws` resolvable from anywhere; stdout a pipe, so process.stdout is a net.Socket.
      const env = { PATH: process.env.PATH, NODE_PATH: path.join(dir, 'node_modules') };
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', pathToFileURL(SEAL).href, '-e', probe], { env, encoding: 'utf8' });
      const out = JSON.parse(stdout) as string[];
      expect(out).toHaveLength(4);
      for (const message of out) expect(message).toMatch(NO_NETWORK);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(connections).toBe(0);
      // Without the seal the same probe reaches the listener: the test can see a connection.
      await promisify(execFile)(process.execPath, ['-e', `new (require('ws'))(); setTimeout(() => process.exit(0), 2000);`], { env });
      expect(connections).toBe(1);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });
});
