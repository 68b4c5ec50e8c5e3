// One WebAssembly office: a Node process of its own (wasm/office/host.ts) holding LibreOffice
// compiled to WebAssembly (~0.85 GB), started in its own process group and always killed as a
// whole (process-group.ts), spoken to over IPC. A process rather than a worker thread because
// only a process can be killed at any instant (a thread blocked inside LibreOfficeKit never
// returns to its event loop), measured by its own resident size, and given no rights: under
// Node's permission model it may read only its own files and the fonts, write nothing and
// start no process, and it has no network (wasm/office/no-network.ts). It inherits no environment (no token, no proxy settings); the V8 flags and
// the environment it runs with are wasm-office-engine.ts's.

import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { exited, killGroup, spawnGroup } from '../installed-office/process-group.js';
import { cpuTicks, mainThreadWaits } from '../../core/process-stat.js';
import { OFFICE_ENVIRONMENT } from './wasm-office-engine.js';
import type { ConvertRequest, HostMessage, HostSettings, StartStage } from '../../core/wasm-office-protocol.js';

/**
 * How a deadlocked start looks over STALL_MS (see WasmOffice.watchStart), in two forms measured
 * here. Blocked for good: under BLOCKED_TICKS of CPU (V8's housekeeping in each isolate: 5 ticks
 * in 16 s). Or polling: the main thread waits for a thread that never answers in slices of a
 * millisecond (Emscripten's futex wait on the main thread), ~900 waits a second at 2–7 ticks a
 * second (0.3–0.6 s of CPU in 15 s, up to 1.8 s with a GC) — under POLLING_TICKS with at least
 * POLLING_WAITS waits. A working start uses a core (quiet: ~100 ticks a second, its main thread
 * 40–50 of them in 25–270 waits), or starved on a machine at load 30 over 2 cores still ~7 % of one
 * (~100 ticks in 15 s) — and then its main thread waits seldom, being mostly preempted.
 */
const STALL_MS = 15_000;
/** Linux's USER_HZ, the unit of /proc's CPU times (100 on every architecture Node runs on). */
const CLOCK_TICKS_PER_S = 100;
const BLOCKED_TICKS = 15;
const POLLING_TICKS = 300;
const POLLING_WAITS = 100 * (STALL_MS / 1000);
const STALL_SAMPLE_MS = 1_000;

/** How one conversion in the office ended. */
export type OfficeReply = { kind: 'converted'; bytes: Uint8Array } | { kind: 'rejected'; message: string } | { kind: 'exited'; detail: string };

/**
 * The host script and what runs before it: compiled beside this module's dist/ twin, or run from
 * source under tsx (tests). `preload`: the network seal (no-network.ts), run first in every
 * thread; the host imports it too, so that run from source (where Node cannot preload a .ts) its
 * main thread has it.
 */
function hostScript(): { script: string; preload: string[] } {
  const compiled = fileURLToPath(new URL('../../wasm/office/host.js', import.meta.url));
  if (existsSync(compiled)) return { script: compiled, preload: ['--import', pathToFileURL(path.join(path.dirname(compiled), 'no-network.js')).href] };
  return { script: fileURLToPath(new URL('../../wasm/office/host.ts', import.meta.url)), preload: ['--import', 'tsx'] };
}

/**
 * docwasm's own modules the host loads: its directory (host, network seal) and the modules of
 * core/ it imports, read from the compiled host's own import lines (type-only imports are gone
 * there), so that an import added to the host is readable by the office without a list to keep.
 */
function hostModules(script: string): string[] {
  const imports = [...readFileSync(script, 'utf8').matchAll(/from '((?:\.\.\/)+core\/[^']+)'/g)].map((match) =>
    fileURLToPath(new URL(match[1] as string, pathToFileURL(script))),
  );
  return [path.dirname(script), ...imports];
}

/** The office package's directory and those of the packages it imports (zod), where Node resolves them from it. */
function officePackageDirs(wasmDir: string): string[] {
  const dir = path.dirname(wasmDir);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const dependencies = Object.keys(manifest.dependencies ?? {}).flatMap((name) => {
    for (let at = dir; ; at = path.dirname(at)) {
      const candidate = path.join(at, 'node_modules', name);
      if (existsSync(candidate)) return [candidate];
      if (path.dirname(at) === at) return [];
    }
  });
  return [dir, ...dependencies];
}

/**
 * Node's permission model, where this Node has it: the office may read its own files — the host's
 * modules, the office package and what it imports, the glue — and the fonts, nothing else (no
 * other file of docwasm's install, its .git included); it writes nothing and starts no process.
 * Each path is given as named and as its real path (Node loads modules by their real paths).
 */
function permissionFlags(script: string, settings: HostSettings): string[] {
  const [major = 0] = process.versions.node.split('.').map(Number);
  // tsx (the host run from source, in tests) reads outside the install: no permissions there.
  if (major < 20 || script.endsWith('.ts')) return [];
  const flag = major >= 22 ? '--permission' : '--experimental-permission';
  const readable = [...hostModules(script), ...officePackageDirs(settings.wasmDir), settings.wasmDir, settings.glue, ...settings.fonts];
  const paths = new Set(readable.flatMap((item) => [item, realpathOr(item)]));
  // One flag a path: Node 20 reads a comma-separated list as one path.
  return [flag, ...[...paths].map((item) => `--allow-fs-read=${item}`), '--allow-worker'];
}

function realpathOr(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/** Names the docwasm process an office belongs to, so that a process table shows whose it is. */
export const officeTag = (servicePid = process.pid): string => `docwasm-wasm-office-of-${servicePid}`;

interface StartSample {
  ticks: number;
  waits: number;
  at: number;
}

/** What a start's last STALL_MS show of a deadlock, in words, or undefined when it is working. */
function stallOf(ticks: number, waits: number): string | undefined {
  const cpu = `${(ticks / CLOCK_TICKS_PER_S).toFixed(2)} s of CPU`;
  if (ticks < BLOCKED_TICKS) return `under ${BLOCKED_TICKS / CLOCK_TICKS_PER_S} s of CPU: ${cpu}`;
  if (ticks < POLLING_TICKS && waits >= POLLING_WAITS) return `its main thread polling: ${cpu}, ${waits} waits`;
  return undefined;
}

export class WasmOffice {
  /** Resolves with the office's version once it can convert; rejects when it fails to start. */
  readonly ready: Promise<string>;
  private readonly child: ChildProcess;
  private stderrTail = '';
  private readonly launchedAt = Date.now();
  /** The last start stage the office reported, and when (HostMessage `stage`). */
  private stage: { stage: StartStage; at: number } | undefined;
  /** Rejects `ready` (a start the watch found deadlocked); a no-op once `ready` has settled. */
  private failStart: (err: Error) => void = () => undefined;
  private pending: ((reply: OfficeReply) => void) | undefined;
  private nextId = 0;

  /** `v8Flags`: officeV8Flags(), the ones this Node knows. */
  constructor(settings: HostSettings, v8Flags: readonly string[]) {
    const { script, preload } = hostScript();
    this.child = spawnGroup(process.execPath, [...v8Flags, ...permissionFlags(script, settings), ...preload, script, JSON.stringify(settings), officeTag()], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
      env: { ...OFFICE_ENVIRONMENT },
    });
    this.child.stderr?.on('data', (chunk: Buffer) => (this.stderrTail = (this.stderrTail + chunk.toString()).slice(-2000)));
    this.ready = new Promise<string>((resolve, reject) => {
      this.failStart = reject;
      this.child.on('message', (message: HostMessage) => {
        if (message.type === 'ready') resolve(message.version);
        else if (message.type === 'stage') this.stage = { stage: message.stage, at: Date.now() };
        else if (message.type === 'failed') reject(new Error(message.message));
        else this.answer(message.type === 'converted' ? { kind: 'converted', bytes: message.bytes } : { kind: 'rejected', message: message.message });
      });
      this.child.once('exit', (code, signal) => {
        const detail = this.exitDetail(code, signal);
        reject(new Error(`the office process exited while starting (${detail})`));
        this.answer({ kind: 'exited', detail });
      });
      this.child.once('error', (err) => reject(err));
    });
    // A start that fails is reported through `ready`; nobody else need listen.
    this.ready.catch(() => undefined);
    this.watchStart();
  }

  /**
   * A start that deadlocks fails at once rather than at the start deadline: LibreOfficeKit's
   * start, blocking the office's main thread, hangs now and then with every thread waiting
   * (3 of 35 starts on a loaded machine, 6 of 16 with both cores kept busy; all threads in futex or epoll
   * waits, the main thread blocked or polling). A starting office is never idle — it compiles,
   * loads and lays out the whole time — so one that shows a deadlock's form (stallOf) for
   * STALL_MS is deadlocked: `ready` rejects, the caller stops it and starts another. Linux only
   * (/proc); elsewhere the start deadline alone.
   */
  private watchStart(): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    const samples: StartSample[] = [];
    const timer = setInterval(() => {
      void Promise.all([cpuTicks(pid), mainThreadWaits(pid)]).then(([ticks, waits]) => {
        if (ticks === undefined || waits === undefined) return clearInterval(timer);
        samples.push({ ticks, waits, at: Date.now() });
        while (samples.length > 1 && (samples[1] as StartSample).at <= Date.now() - STALL_MS) samples.shift();
        const oldest = samples[0] as StartSample;
        if (Date.now() - oldest.at < STALL_MS) return;
        const stalled = stallOf(ticks - oldest.ticks, waits - oldest.waits);
        if (stalled === undefined) return;
        clearInterval(timer);
        this.failStart(new Error(`the office stopped making progress while starting, ${this.startProgress} (${stalled} in ${STALL_MS / 1000} s: deadlocked)`));
      });
    }, STALL_SAMPLE_MS);
    timer.unref();
    void this.ready.then(
      () => clearInterval(timer),
      () => clearInterval(timer),
    );
  }

  /** Where a start is, for its failure messages: `after "LibreOfficeKit initialized" (12.3 s after launch)`. */
  get startProgress(): string {
    if (!this.stage) return 'before its module loaded';
    return `after "${this.stage.stage}" (${((this.stage.at - this.launchedAt) / 1000).toFixed(1)} s after launch)`;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Converts one document (one at a time); resolves however it ends, `exited` when the office died under it. */
  convert(request: Omit<ConvertRequest, 'type' | 'id'>): Promise<OfficeReply> {
    if (this.pending) throw new Error('the WebAssembly office converts one document at a time');
    if (!this.alive || !this.child.connected) return Promise.resolve({ kind: 'exited', detail: 'the office process was not running' });
    return new Promise((resolve) => {
      this.pending = resolve;
      this.child.send({ type: 'convert', id: ++this.nextId, ...request } satisfies ConvertRequest);
    });
  }

  /** Kills the office's process group; resolves once it has exited. */
  stop(): Promise<void> {
    killGroup(this.child);
    return exited(this.child);
  }

  private answer(reply: OfficeReply): void {
    const pending = this.pending;
    this.pending = undefined;
    pending?.(reply);
  }

  private exitDetail(code: number | null, signal: NodeJS.Signals | null): string {
    const lines = this.stderrTail.trim().split('\n');
    const last = lines.find((line) => /^\w*Error\b/.test(line)) ?? lines.filter((line) => !/Warning|^\(Use `node|^Node\.js v/.test(line)).at(-1);
    return `${signal ? `signal ${signal}` : `exit code ${code}`}${last ? `: ${last}` : ''}`;
  }
}
