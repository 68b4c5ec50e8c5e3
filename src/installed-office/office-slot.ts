// One installed LibreOffice office — how to start, stop and health-check it (the supervisor,
// src/jobs/supervisor.ts, decides when): a private profile per seat and one warm office process
// that stays up because it holds an (empty) anchor document open. Conversions are forwarded to
// it by a short-lived `soffice --convert-to` launcher using the same profile (office-invocation.ts,
// one document at a time), so no request pays the ~1.3 s start-up. The supervisor replaces it
// after `--soffice-recycle-after` files, when it crashes, when a conversion stalls past the
// timeout or nears the memory ceiling, and when a request is cancelled mid-conversion.

import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { ShutdownGate } from '../jobs/shutdown-gate.js';
import type { StartContext } from '../jobs/supervisor.js';
import { createPrivateOutput } from '../files/staging.js';
import { convertInOffice, type WarmOffice } from './office-invocation.js';
import type { MemoryCeiling } from './office-memory.js';
import { officePipePath, removePipeAtExit, removePipeNow, removeStalePipe, waitForFile } from './office-pipe.js';
import { spawnOffice } from './office-spawn.js';
import { exited, killGroup } from './process-group.js';
import { prepareProfile } from '../documents/profile.js';

export interface OfficeSettings {
  soffice: string;
  /** The seats' directories are `slot-<seat>` inside it. */
  root: string;
  startTimeoutMs: number;
  fonts: readonly string[];
  env: NodeJS.ProcessEnv;
  memory: MemoryCeiling | undefined;
  /** The backend's supervisor's: closed when the service shuts down. */
  gate: ShutdownGate;
}

/** One running office of a seat; `warm` lends it to an invocation. */
export class InstalledOffice {
  private launcher: ChildProcess | undefined;
  private lineListener: ((line: string) => void) | undefined;

  constructor(
    readonly child: ChildProcess,
    private readonly dir: string,
    private readonly profileUrl: string,
    private readonly settings: OfficeSettings,
  ) {
    for (const stream of [child.stdout, child.stderr]) {
      if (stream) createInterface({ input: stream }).on('line', (line) => this.lineListener?.(line));
    }
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Kills the office and its launcher, group and all; resolves once the office is gone. */
  async stop(): Promise<void> {
    this.kill();
    await exited(this.child);
  }

  /** The warm office as an invocation uses it. */
  warm(): WarmOffice {
    const { soffice, env, memory, gate } = this.settings;
    return {
      soffice,
      slotDir: this.dir,
      profileUrl: this.profileUrl,
      env,
      instance: this.child,
      memory,
      listen: (listener) => (this.lineListener = listener),
      launched: (launcher) => (this.launcher = launcher),
      stop: () => this.kill(),
      gate,
    };
  }

  private kill(): void {
    if (this.launcher) killGroup(this.launcher);
    killGroup(this.child);
  }
}

/**
 * Starts the office of seat `context.seat`, warm: up once it holds its anchor open, and (unless
 * a file is waiting after idle retirement) proven by a first conversion. Rejects, its office
 * stopped, when it cannot.
 */
export async function startInstalledOffice(settings: OfficeSettings, context: StartContext): Promise<InstalledOffice> {
  const dir = path.join(settings.root, `slot-${context.seat}`);
  const profileUrl = await prepareProfile(path.join(dir, 'profile'), settings.fonts);
  const pipe = officePipePath(profileUrl);
  await removeStalePipe(pipe);
  const anchor = path.join(dir, 'anchor.txt');
  const lockFile = path.join(dir, '.~lock.anchor.txt#');
  await fs.rm(lockFile, { force: true });
  await fs.writeFile(anchor, '');
  // Closed (service stopping) during the awaits above: an office started now would outlive it.
  if (context.signal.aborted) throw new Error('the service closed while the office was starting');
  const child = spawnOffice({
    soffice: settings.soffice,
    args: [`-env:UserInstallation=${profileUrl}`, '--headless', '--invisible', '--norestore', '--nologo', '--nodefault', '--nolockcheck', anchor],
    slotDir: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    extraEnv: settings.env,
    memory: settings.memory,
  });
  const office = new InstalledOffice(child, dir, profileUrl, settings);
  const forgetPipe = removePipeAtExit(pipe);
  child.once('exit', () => {
    // However the office ended (killed, crashed, retired, recycled) its socket is stale now:
    // without an OS sandbox it is the host's /tmp/OSL_PIPE_…, which nothing else removes.
    // Synchronously, before a replacement office (same profile, same pipe) can be started.
    removePipeNow(pipe);
    forgetPipe();
    context.exited();
  });
  const stopOnClose = () => void office.stop();
  context.signal.addEventListener('abort', stopOnClose, { once: true });
  try {
    await becomeWarm(office, dir, lockFile, settings.startTimeoutMs, !context.afterRetirement);
    return office;
  } catch (err) {
    await office.stop();
    throw err;
  } finally {
    context.signal.removeEventListener('abort', stopOnClose);
  }
}

async function becomeWarm(office: InstalledOffice, dir: string, lockFile: string, startTimeoutMs: number, warmUp: boolean): Promise<void> {
  const { child } = office;
  const alive = () => office.alive;
  // The office is up once it holds the anchor open, i.e. once the anchor's lock file exists.
  // Forwarding earlier is a race: on a fresh profile soffice.bin restarts itself once, and an
  // office that finishes a forwarded conversion before the anchor is open terminates.
  const loaded = await waitForFile(lockFile, startTimeoutMs, alive);
  if (!alive()) throw new Error(`soffice exited while starting (exit code ${child.exitCode ?? child.signalCode})`);
  if (!loaded) throw new Error(`soffice did not finish starting within ${startTimeoutMs / 1000} s`);
  // After idle retirement a conversion is waiting: its own run proves the office answers, and
  // a warm-up in front of it would only add its time (issue 19: first conversion after idle).
  if (!warmUp) return;
  // A first conversion loads the filters and proves the office answers forwarded requests.
  const warmInput = path.join(dir, 'warm-up.txt');
  const warmOutput = path.join(dir, 'warm-up.pdf');
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
    const { outcome } = await convertInOffice(office.warm(), { convertTo: 'pdf:writer_pdf_Export', job }, startTimeoutMs);
    if (!('ok' in outcome) || !outcome.ok) throw new Error(`the warm-up conversion failed: ${'message' in outcome ? outcome.message : 'no result'}`);
  } finally {
    await Promise.all([warmInput, warmOutput].map((file) => fs.rm(file, { force: true })));
  }
  if (!alive()) throw new Error('soffice exited after its warm-up conversion');
}
