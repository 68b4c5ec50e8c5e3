// One LibreOffice slot — process supervision: a private profile and one warm office process
// that stays up because it holds an (empty) anchor document open. Conversions are forwarded to
// it by a short-lived `soffice --convert-to` launcher using the same profile (office-invocation.ts,
// one document at a time), so no request pays the ~1.3 s start-up. The slot supervises its
// office: it is replaced after `recycleAfter` files, when it crashes, when a conversion stalls
// past the timeout or nears the memory ceiling, and when a request is cancelled mid-conversion.

import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { ShutdownGate } from '../jobs/shutdown-gate.js';
import { RecycleMeter } from '../../core/recycle.js';
import { createPrivateOutput } from '../files/staging.js';
import { convertInOffice, type Invocation, type SlotOutcome, type WarmOffice } from './office-invocation.js';
import type { MemoryCeiling } from './office-memory.js';
import { officePipePath, removePipeAtExit, removePipeNow, removeStalePipe, waitForFile } from './office-pipe.js';
import { spawnOffice } from './office-spawn.js';
import { exited, killGroup } from './process-group.js';
import { logEngineRetired, logEngineStarted } from '../jobs/engine-events.js';
import { prepareProfile } from '../documents/profile.js';

export interface SlotOptions {
  soffice: string;
  dir: string;
  timeoutMs: number;
  startTimeoutMs: number;
  recycleAfter: number;
  fonts: readonly string[];
  env: NodeJS.ProcessEnv;
  memory: MemoryCeiling | undefined;
  /** The backend's: closed when the service shuts down (before its slots are). */
  gate: ShutdownGate;
  /** Called whenever the slot becomes ready (or fails to start). */
  onStateChange: () => void;
}

export type SlotState = 'stopped' | 'starting' | 'ready' | 'busy' | 'failed' | 'closed';

const CRASH_RESTARTS_BEFORE_FAILING = 3;

export class OfficeSlot {
  state: SlotState = 'stopped';
  lastError = '';
  failedAt = 0;
  private instance: ChildProcess | undefined;
  private launcher: ChildProcess | undefined;
  private starting: Promise<void> | undefined;
  private lineListener: ((line: string) => void) | undefined;
  private quickCrashes = 0;
  private failedStarts = 0;
  private startedAt = 0;
  private readonly profileDir: string;
  private readonly recycle: RecycleMeter;
  private profileUrl = '';
  /** Stopped for idleness after it had worked: the next start skips the warm-up (the waiting conversion is the proof). */
  private retired = false;

  constructor(private readonly options: SlotOptions) {
    this.profileDir = path.join(options.dir, 'profile');
    this.recycle = new RecycleMeter({ jobs: options.recycleAfter });
  }

  /** PID of the office process group (for tests and health). */
  get pid(): number | undefined {
    return this.instance?.pid;
  }

  start(): Promise<void> {
    if (this.state === 'closed') return Promise.resolve();
    this.starting ??= this.launch()
      .then(
        () => {
          this.failedStarts = 0;
          if (this.state === 'closed') return;
          this.state = 'ready';
          logEngineStarted('libreoffice office', Date.now() - this.startedAt, { pid: this.instance?.pid });
        },
        (err: unknown) => {
          if (this.state === 'closed') return;
          // An office killed while starting (OOM killer, someone's kill) is tried again before
          // the slot gives up, as an office that dies while idle is.
          if (++this.failedStarts < CRASH_RESTARTS_BEFORE_FAILING) {
            this.state = 'stopped';
            this.stopInstance();
            setImmediate(() => void this.start());
            return;
          }
          this.failedStarts = 0;
          this.state = 'failed';
          this.failedAt = Date.now();
          this.lastError = err instanceof Error ? err.message : String(err);
          this.stopInstance();
        },
      )
      .finally(() => {
        this.starting = undefined;
        this.options.onStateChange();
      });
    return this.starting;
  }

  async run(invocation: Invocation): Promise<SlotOutcome> {
    this.state = 'busy';
    if (invocation.signal?.aborted) {
      this.state = 'ready';
      return { retry: true };
    }
    const office = this.warmOffice();
    if (!office) {
      // The office died between becoming ready and this run: hand the file back.
      void this.start();
      return { retry: true };
    }
    const { outcome, replace } = await convertInOffice(office, invocation, this.options.timeoutMs);
    if (this.recycle.record({ failed: replace })) void this.start();
    else if (this.state === 'busy') this.state = 'ready';
    return outcome;
  }

  /** Stops an idle office (idle retirement after `idleMs`; undefined: the memory budget's, which says so); the next start() brings up a fresh one. */
  retire(idleMs: number | undefined): void {
    if (this.state !== 'ready') return;
    if (idleMs !== undefined) logEngineRetired('libreoffice office', idleMs, { pid: this.instance?.pid });
    this.state = 'stopped';
    this.retired = true;
    this.stopInstance();
  }

  close(): void {
    this.state = 'closed';
    this.stopInstance();
    removePipeNow(this.profileUrl ? officePipePath(this.profileUrl) : undefined);
  }

  private async launch(): Promise<void> {
    this.state = 'starting';
    this.stopInstance();
    if (this.instance) await exited(this.instance);
    this.profileUrl = await prepareProfile(this.profileDir, this.options.fonts);
    const pipe = officePipePath(this.profileUrl);
    await removeStalePipe(pipe);
    const anchor = path.join(this.options.dir, 'anchor.txt');
    const lockFile = path.join(this.options.dir, '.~lock.anchor.txt#');
    await fs.rm(lockFile, { force: true });
    await fs.writeFile(anchor, '');
    // Closed (service stopping) during the awaits above: an office started now would outlive it.
    if (this.isClosed()) throw new Error('the slot was closed while starting');
    const child = spawnOffice({
      soffice: this.options.soffice,
      args: [`-env:UserInstallation=${this.profileUrl}`, '--headless', '--invisible', '--norestore', '--nologo', '--nodefault', '--nolockcheck', anchor],
      slotDir: this.options.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      extraEnv: this.options.env,
      memory: this.options.memory,
    });
    this.instance = child;
    this.startedAt = Date.now();
    for (const stream of [child.stdout, child.stderr]) {
      if (stream) createInterface({ input: stream }).on('line', (line) => this.lineListener?.(line));
    }
    const forgetPipe = removePipeAtExit(pipe);
    child.once('exit', () => {
      // However the office ended (killed, crashed, retired, recycled) its socket is stale now:
      // without an OS sandbox it is the host's /tmp/OSL_PIPE_…, which nothing else removes.
      // Synchronously, before a replacement office (same profile, same pipe) can be started.
      removePipeNow(pipe);
      forgetPipe();
      this.onInstanceExit(child);
    });
    const alive = () => child.exitCode === null && child.signalCode === null && this.instance === child;
    // The office is up once it holds the anchor open, i.e. once the anchor's lock file exists.
    // Forwarding earlier is a race: on a fresh profile soffice.bin restarts itself once, and an
    // office that finishes a forwarded conversion before the anchor is open terminates.
    const loaded = await waitForFile(lockFile, this.options.startTimeoutMs, alive);
    if (!alive()) throw new Error(`soffice exited while starting (exit code ${child.exitCode ?? child.signalCode})`);
    if (!loaded) throw new Error(`soffice did not finish starting within ${this.options.startTimeoutMs / 1000} s`);
    // After idle retirement a conversion is waiting: its own run proves the office answers, and
    // a warm-up in front of it would only add its time (issue 19: first conversion after idle).
    if (this.retired) {
      this.retired = false;
      return;
    }
    // A first conversion loads the filters and proves the office answers forwarded requests.
    const office = this.warmOffice();
    const warmInput = path.join(this.options.dir, 'warm-up.txt');
    const warmOutput = path.join(this.options.dir, 'warm-up.pdf');
    try {
      await fs.writeFile(warmInput, 'warm-up 预热\n');
      const job = {
        input: { path: warmInput },
        extension: 'txt',
        format: 'pdf',
        output: await createPrivateOutput(warmOutput),
        outputShown: warmOutput,
        shownName: 'warm-up',
      };
      const { outcome } = office
        ? await convertInOffice(office, { convertTo: 'pdf:writer_pdf_Export', job }, this.options.startTimeoutMs)
        : { outcome: undefined };
      if (!outcome || !('ok' in outcome) || !outcome.ok)
        throw new Error(`the warm-up conversion failed: ${outcome && 'message' in outcome ? outcome.message : 'no result'}`);
    } finally {
      await Promise.all([warmInput, warmOutput].map((file) => fs.rm(file, { force: true })));
    }
    if (!alive()) throw new Error('soffice exited after its warm-up conversion');
  }

  /** A method, not a field read, because close() may change the state during any await. */
  private isClosed(): boolean {
    return this.state === 'closed';
  }

  /** The warm office as an invocation uses it; undefined when it is not running. */
  private warmOffice(): WarmOffice | undefined {
    const instance = this.instance;
    if (!instance) return undefined;
    const { soffice, dir, env, memory, gate } = this.options;
    return {
      soffice,
      slotDir: dir,
      profileUrl: this.profileUrl,
      env,
      instance,
      memory,
      listen: (listener) => (this.lineListener = listener),
      launched: (launcher) => (this.launcher = launcher),
      stop: () => this.stopInstance(),
      gate,
    };
  }

  private onInstanceExit(child: ChildProcess): void {
    if (this.instance !== child) return;
    this.instance = undefined;
    if (this.state !== 'ready') return;
    // An idle office died (crash, OOM killer, someone's kill): bring up a new one, but stop
    // trying when it keeps dying right after start.
    this.quickCrashes = Date.now() - this.startedAt < 30_000 ? this.quickCrashes + 1 : 0;
    if (this.quickCrashes >= CRASH_RESTARTS_BEFORE_FAILING) {
      this.state = 'failed';
      this.failedAt = Date.now();
      this.lastError = 'soffice keeps exiting right after start';
      this.options.onStateChange();
      return;
    }
    void this.start();
  }

  private stopInstance(): void {
    if (this.launcher) killGroup(this.launcher);
    if (this.instance) killGroup(this.instance);
  }
}
