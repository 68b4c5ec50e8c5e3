// One LibreOffice slot: a private profile and one warm office process that stays up because
// it holds an (empty) anchor document open. Conversions are forwarded to it by a short-lived
// `soffice --convert-to` launcher using the same profile, so no request pays the ~1.3 s
// start-up. The slot supervises its office: it is replaced after `recycleAfter` files, when it
// crashes, and when a conversion stalls past the timeout (then the stalled file gets TIMEOUT and
// the files queued behind it in the same invocation are handed back for another run).

import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { ConversionOutcome } from './backend.js';
import { officePipePath, removeStalePipe, waitForFile } from './office-pipe.js';
import { spawnOffice, stageInput } from './office-spawn.js';
import { fileError } from '../shared/file-errors.js';
import { exited, killGroup } from './process-group.js';
import { prepareProfile } from './profile.js';

export interface SlotJob {
  input: string;
  extension: string;
  format: string;
  output: string;
  shownName: string;
}

/** `retry`: the file was not reached because another file of its invocation stalled. */
export type SlotOutcome = ConversionOutcome | { retry: true };

export interface Invocation {
  convertTo: string;
  infilter?: string | undefined;
  jobs: readonly SlotJob[];
  /** Aborted when the request behind these files was cancelled: the office is stopped and replaced. */
  signal?: AbortSignal | undefined;
}

type InvocationEnd = 'done' | 'stalled' | 'crashed' | 'cancelled';

export interface SlotOptions {
  soffice: string;
  dir: string;
  timeoutMs: number;
  startTimeoutMs: number;
  recycleAfter: number;
  fonts: readonly string[];
  env: NodeJS.ProcessEnv;
  /** Called whenever the slot becomes ready (or fails to start). */
  onStateChange: () => void;
}

export type SlotState = 'stopped' | 'starting' | 'ready' | 'busy' | 'failed' | 'closed';

const CONVERT_LINE = /^convert (.+) -> .+ using filter/;
const JOB_FILE = /[\\/]j(\d+)\.[^\\/]*$/;
const CRASH_RESTARTS_BEFORE_FAILING = 3;

export class OfficeSlot {
  state: SlotState = 'stopped';
  lastError = '';
  failedAt = 0;
  private instance: ChildProcess | undefined;
  private launcher: ChildProcess | undefined;
  private starting: Promise<void> | undefined;
  private lineListener: ((line: string) => void) | undefined;
  private conversions = 0;
  private invocations = 0;
  private quickCrashes = 0;
  private failedStarts = 0;
  private startedAt = 0;
  private readonly profileDir: string;
  private profileUrl = '';

  constructor(private readonly options: SlotOptions) {
    this.profileDir = path.join(options.dir, 'profile');
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
          if (this.state !== 'closed') this.state = 'ready';
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

  async run(invocation: Invocation): Promise<SlotOutcome[]> {
    this.state = 'busy';
    const dir = path.join(this.options.dir, `run-${++this.invocations}`);
    try {
      if (invocation.signal?.aborted) {
        this.state = 'ready';
        return invocation.jobs.map(() => ({ retry: true }));
      }
      if (!this.instance) {
        // The office died between becoming ready and this run: hand the files back.
        void this.start();
        return invocation.jobs.map(() => ({ retry: true }));
      }
      const { outcomes, replace } = await this.invoke(invocation, dir, this.options.timeoutMs);
      this.conversions += invocation.jobs.length;
      if (replace || this.conversions >= this.options.recycleAfter) {
        this.conversions = 0;
        void this.start();
      } else if (this.state === 'busy') {
        this.state = 'ready';
      }
      return outcomes;
    } finally {
      await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** Stops an idle office (idle retirement); the next start() brings up a fresh one. */
  retire(): void {
    if (this.state !== 'ready') return;
    this.state = 'stopped';
    this.stopInstance();
  }

  close(): void {
    this.state = 'closed';
    this.stopInstance();
    const pipe = this.profileUrl ? officePipePath(this.profileUrl) : undefined;
    if (pipe !== undefined) rmSync(pipe, { force: true });
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
    const child = spawnOffice({
      soffice: this.options.soffice,
      args: [`-env:UserInstallation=${this.profileUrl}`, '--headless', '--invisible', '--norestore', '--nologo', '--nodefault', '--nolockcheck', anchor],
      slotDir: this.options.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      extraEnv: this.options.env,
    });
    this.instance = child;
    this.startedAt = Date.now();
    for (const stream of [child.stdout, child.stderr]) {
      if (stream) createInterface({ input: stream }).on('line', (line) => this.lineListener?.(line));
    }
    child.once('exit', () => this.onInstanceExit(child));
    const alive = () => child.exitCode === null && child.signalCode === null && this.instance === child;
    // The office is up once it holds the anchor open, i.e. once the anchor's lock file exists.
    // Forwarding earlier is a race: on a fresh profile soffice.bin restarts itself once, and an
    // office that finishes a forwarded conversion before the anchor is open terminates.
    const loaded = await waitForFile(lockFile, this.options.startTimeoutMs, alive);
    if (!alive()) throw new Error(`soffice exited while starting (exit code ${child.exitCode ?? child.signalCode})`);
    if (!loaded) throw new Error(`soffice did not finish starting within ${this.options.startTimeoutMs / 1000} s`);
    // A first conversion loads the filters and proves the office answers forwarded requests.
    const warmDir = path.join(this.options.dir, 'warm-up');
    try {
      const warmInput = path.join(this.options.dir, 'warm-up.txt');
      await fs.writeFile(warmInput, 'warm-up 预热\n');
      const { outcomes } = await this.invoke(
        { convertTo: 'pdf:writer_pdf_Export', jobs: [{ input: warmInput, extension: 'txt', format: 'pdf', output: path.join(warmDir, 'warm.pdf'), shownName: 'warm-up' }] },
        warmDir,
        this.options.startTimeoutMs,
      );
      const outcome = outcomes[0];
      if (!outcome || !('ok' in outcome) || !outcome.ok) throw new Error(`the warm-up conversion failed: ${outcome && 'message' in outcome ? outcome.message : 'no result'}`);
    } finally {
      await fs.rm(warmDir, { recursive: true, force: true }).catch(() => undefined);
    }
    if (!alive()) throw new Error('soffice exited after its warm-up conversion');
  }

  /** Runs one `soffice --convert-to` over the jobs; `replace` when the office must be restarted. */
  private async invoke(invocation: Invocation, dir: string, timeoutMs: number): Promise<{ outcomes: SlotOutcome[]; replace: boolean }> {
    const instance = this.instance;
    if (!instance) throw new Error('no office process');
    const inDir = path.join(dir, 'in');
    const outDir = path.join(dir, 'out');
    await fs.mkdir(inDir, { recursive: true });
    await fs.mkdir(outDir, { recursive: true });
    // Inputs get neutral names (j0.docx, j1.docx, …): files with one stem from different folders
    // cannot collide in the shared --outdir, and a name cannot be read as an option.
    const links = await Promise.all(
      invocation.jobs.map(async (job, k) => {
        const link = path.join(inDir, `j${k}.${job.extension}`);
        await stageInput(job.input, link);
        return link;
      }),
    );
    const formatOf = (job: SlotJob) => job.format;
    const producedPath = (k: number) => path.join(outDir, `j${k}.${formatOf(invocation.jobs[k] as SlotJob)}`);

    let lastConverted = -1;
    const storeFailed = new Set<number>();
    let watchdog: NodeJS.Timeout | undefined;
    let onInstanceExit = () => {};
    const onAbort = () => endNow('cancelled');
    let endNow: (end: InvocationEnd) => void = () => {};
    const ending = new Promise<InvocationEnd>((resolve) => {
      endNow = resolve;
      const arm = () => {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => resolve('stalled'), timeoutMs);
      };
      this.lineListener = (line) => {
        arm();
        const converted = CONVERT_LINE.exec(line);
        const index = converted?.[1] ? JOB_FILE.exec(converted[1])?.[1] : undefined;
        if (index !== undefined) lastConverted = Math.max(lastConverted, Number(index));
        // Load failures print "source file could not be loaded" before any convert line of
        // their own; any other Error belongs to the file whose convert line came last.
        else if (line.startsWith('Error:') && !line.includes('could not be loaded') && lastConverted >= 0) storeFailed.add(lastConverted);
      };
      arm();
      const args = [`-env:UserInstallation=${this.profileUrl}`, '--headless', '--norestore', '--nologo', '--convert-to', invocation.convertTo];
      if (invocation.infilter) args.push(`--infilter=${invocation.infilter}`);
      args.push('--outdir', outDir, ...links);
      const launcher = spawnOffice({ soffice: this.options.soffice, args, slotDir: this.options.dir, stdio: 'ignore', extraEnv: this.options.env });
      this.launcher = launcher;
      void exited(launcher).then(() => resolve('done'));
      // A listener of our own, removed below: the office lives through many invocations.
      onInstanceExit = () => resolve('crashed');
      if (instance.exitCode !== null || instance.signalCode !== null) onInstanceExit();
      else instance.once('exit', onInstanceExit);
      if (invocation.signal?.aborted) onAbort();
      else invocation.signal?.addEventListener('abort', onAbort, { once: true });
    });
    const end = await ending;
    instance.off('exit', onInstanceExit);
    invocation.signal?.removeEventListener('abort', onAbort);
    clearTimeout(watchdog);
    this.lineListener = undefined;
    if (this.launcher) killGroup(this.launcher);
    this.launcher = undefined;
    // Let the office's last lines (an Error for the last file) arrive before judging.
    await new Promise((resolve) => setTimeout(resolve, end === 'done' ? 5 : 0));

    const finished = async (k: number) => !storeFailed.has(k) && ((await fs.stat(producedPath(k)).catch(() => undefined))?.size ?? 0) > 0;
    if (end === 'cancelled') {
      // Stopping the office is the only way to stop its conversion. Files finished before the
      // one in progress are delivered; the rest are handed back (the cancelled request's drop out).
      this.stopInstance();
      const outcomes = await Promise.all(invocation.jobs.map(async (job, k): Promise<SlotOutcome> => (k < lastConverted && (await finished(k)) ? deliver(producedPath(k), job.output) : { retry: true })));
      return { outcomes, replace: true };
    }
    let culprit = invocation.jobs.length;
    if (end !== 'done') {
      this.stopInstance();
      culprit = lastConverted >= 0 && !(await finished(lastConverted)) ? lastConverted : lastConverted + 1;
    }
    const outcomes: SlotOutcome[] = [];
    for (const [k, job] of invocation.jobs.entries()) {
      if (k > culprit) outcomes.push({ retry: true });
      else if (k === culprit) outcomes.push(this.state === 'closed' ? shutdownOutcome(job) : stallOutcome(end, job, timeoutMs));
      else if (await finished(k)) outcomes.push(await deliver(producedPath(k), job.output));
      else outcomes.push({ ok: false, code: 'INVALID_INPUT', message: `LibreOffice could not convert ${job.shownName} (damaged or unsupported content)` });
    }
    return { outcomes, replace: end !== 'done' };
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

function shutdownOutcome(job: SlotJob): SlotOutcome {
  return { ok: false, code: 'BUSY', message: `The service is shutting down; converting ${job.shownName} was not finished` };
}

function stallOutcome(end: InvocationEnd, job: SlotJob, timeoutMs: number): SlotOutcome {
  if (end === 'stalled') {
    return { ok: false, code: 'TIMEOUT', message: `Converting ${job.shownName} ran longer than ${timeoutMs / 1000} s; the LibreOffice process was stopped and replaced` };
  }
  return { ok: false, code: 'INVALID_INPUT', message: `LibreOffice stopped while converting ${job.shownName}; it was restarted` };
}

/** Writes a produced file into the job's staged output (a copy across file systems). */
async function deliver(produced: string, output: string): Promise<SlotOutcome> {
  try {
    await fs.rename(produced, output).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EXDEV') throw err;
      await fs.copyFile(produced, output);
    });
    return { ok: true };
  } catch (err) {
    const { code, message } = fileError(err, { role: 'output', shown: output });
    return { ok: false, code, message };
  }
}
