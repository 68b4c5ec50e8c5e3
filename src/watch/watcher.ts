// A watched folder: every file that appears in `inDir` (once its size has stopped changing for
// the settle time) runs through a pipeline, a few at a time, its result published atomically to
// `<out>/<stem>.<ext>` (or the dir `<out>/<stem>/` when the last step makes several files). It is
// a door like the CLI: each file is one run of the `pipeline` operation, with its validation,
// engines, limits and error codes. Inputs are never modified, deleted or written over: they are
// only moved with `doneDir`/`failedDir`, under a new name where theirs is taken there, and the
// watcher removes nothing it did not make (./files.ts). One watcher per folder (./lock.ts).
// Watching is chokidar's: native events, or polling (`poll`) where they do
// not reach (network shares, some USB sticks). What was handled is in ./state.ts.

import fs from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { watch, type FSWatcher } from 'chokidar';
import { ApiError, toApiError } from '../../core/errors.js';
import { extensionOf, fileStem } from '../files/paths.js';
import { CancelledError } from '../../core/job-errors.js';
import { BoundedQueue } from '../jobs/bounded.js';
import { kindOfExtension } from '../operations/file-kinds.js';
import { detectFormat } from '../formats/stream-info.js';
import { formatOfExtension, type FileKind } from '../../core/input-formats.js';
import type { Operation, OperationContext } from '../operations/operation.js';
import { validateInput } from '../operations/validate.js';
import { planPipeline, type PipelinePlan, type StepBody } from '../pipeline/plan.js';
import { decide, sameVersion } from './decide.js';
import { makePartialDir, mayReplaceDir, moveInto, notOurs, publishDir, recoverMoves, removeLeftovers, writeFileAtomically } from './files.js';
import { lockFolder, type FolderLock } from './lock.js';
import { errorRecordName } from './names.js';
import { WatchState, type StateEntry, type Version } from './state.js';

export interface WatchOptions {
  inDir: string;
  outDir: string;
  failedDir: string | undefined;
  doneDir: string | undefined;
  steps: StepBody[];
  concurrency: number;
  settleMs: number;
  poll: boolean;
  /** One line per file. */
  log: (line: string) => void;
  progress?: ((done: number, total: number) => void) | undefined;
}

export interface Watcher {
  /** Resolves once the files present at start have been seen (they may still be running). */
  ready: Promise<void>;
  /** Stops watching, cancels the runs in flight (they publish nothing) and waits for them. */
  close(): Promise<void>;
}

/** Where a file's result goes. */
interface Target {
  path: string;
  /** The last step makes several files: `path` is a dir. */
  isDir: boolean;
}

export async function startWatcher(options: WatchOptions, pipeline: Operation, operations: readonly Operation[], context: OperationContext): Promise<Watcher> {
  const inDir = path.resolve(options.inDir);
  // The chain is checked once, before anything is watched.
  const plan = planPipeline(
    validateInput(pipeline.input, { input: path.join(inDir, 'probe'), steps: options.steps, outputDir: options.outDir }) as {
      steps: StepBody[];
      input: string;
      outputDir: string;
    },
    operations,
  );
  const locks = await lockFolders(inDir, options.outDir);
  try {
    return await watchLocked({ ...options, inDir }, plan, pipeline, context, locks);
  } catch (err) {
    await releaseAll(locks);
    throw err;
  }
}

/** --out's lock, then the watched folder's (not taken where that folder is read-only to us: nothing can be moved out of it then). */
async function lockFolders(inDir: string, outDir: string): Promise<FolderLock[]> {
  await fs.mkdir(outDir, { recursive: true });
  const out = await lockFolder(outDir, 'the results folder');
  try {
    const watched = await lockFolder(inDir, 'the watched folder', true);
    return [out, watched].filter((lock): lock is FolderLock => lock !== undefined);
  } catch (err) {
    await out?.release();
    throw err;
  }
}

const releaseAll = (locks: readonly FolderLock[]) => Promise.all(locks.map((lock) => lock.release())).then(() => undefined);

async function watchLocked(
  options: WatchOptions,
  plan: PipelinePlan,
  pipeline: Operation,
  context: OperationContext,
  locks: readonly FolderLock[],
): Promise<Watcher> {
  const inDir = options.inDir;
  // A misspelt step field would otherwise pass silently as the default, for every file.
  for (const warning of plan.warnings) options.log(warning);
  const state = await WatchState.open(options.outDir, options.log);
  // What a killed run left half-made: nothing of it was published, the state says to run it again.
  await Promise.all([options.outDir, options.failedDir, options.doneDir].map((dir) => dir && removeLeftovers(dir)));
  // Inputs a killed run left on their way to --done or --failed: put in place, never removed.
  await recoverMoves([options.inDir, options.doneDir, options.failedDir].filter((dir): dir is string => dir !== undefined));
  const runner = new FileRunner(options, plan, pipeline, state, context);
  const watcher: FSWatcher = watch(inDir, {
    depth: 0,
    ignoreInitial: false,
    usePolling: options.poll,
    ...(options.poll && { interval: POLL_INTERVAL_MS, binaryInterval: POLL_INTERVAL_MS }),
    awaitWriteFinish: { stabilityThreshold: options.settleMs, pollInterval: Math.max(20, Math.min(100, Math.round(options.settleMs / 4))) },
    // Hidden files are not documents: partial uploads (rsync's .name.XXXX), our own temp files.
    ignored: (file) => file !== inDir && path.basename(file).startsWith('.'),
  });
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  const schedule = (file: string) => {
    if (path.dirname(path.resolve(file)) === inDir) runner.schedule(path.basename(file));
  };
  watcher.on('add', schedule);
  watcher.on('change', schedule);
  watcher.on('error', (err) => options.log(`watch error: ${(err as Error).message}`));
  return {
    ready,
    close: async () => {
      // The locks go whatever closing the rest meets: a lock left behind refuses the next watcher.
      try {
        await watcher.close();
        await runner.close();
      } finally {
        await releaseAll(locks);
      }
    },
  };
}

/** Polling every second is what a share or a stick can bear; native events need none. */
const POLL_INTERVAL_MS = 1_000;

type RunnerOptions = Omit<WatchOptions, 'poll' | 'settleMs'>;

/** Runs scheduled files through the pipeline, `concurrency` at a time (src/jobs/bounded.ts), each name once at a time. */
class FileRunner {
  /** Names waiting or running; one changed while running is looked at again when its run ends. */
  private readonly queue: BoundedQueue<string>;
  private readonly stop = new AbortController();
  private readonly reads: readonly FileKind[];

  constructor(
    private readonly options: RunnerOptions,
    private readonly plan: PipelinePlan,
    private readonly pipeline: Operation,
    private readonly state: WatchState,
    private readonly context: OperationContext,
  ) {
    this.reads = (plan.steps[0] as PipelinePlan['steps'][number]).reads;
    this.queue = new BoundedQueue({
      limit: options.concurrency,
      run: (name) => this.handle(name),
      failed: (name, err) => this.options.log(`${name}: ${toApiError(err).code}: ${toApiError(err).message}`),
      ended: (finished, seen) => this.options.progress?.(finished, seen),
    });
  }

  schedule(name: string): void {
    this.queue.add(name);
  }

  /** Stops: what waits is dropped, what runs is cancelled (it publishes nothing) and awaited. */
  async close(): Promise<void> {
    this.stop.abort();
    await this.queue.close();
  }

  private async handle(name: string): Promise<void> {
    const file = path.join(this.options.inDir, name);
    const stats = await fs.stat(file).catch(() => undefined);
    if (!stats?.isFile()) return;
    const version: Version = { size: stats.size, mtimeMs: stats.mtimeMs };
    const entry = this.state.get(name);
    if (entry && sameVersion(entry, version) && entry.status !== 'running') {
      // Done and recorded, but killed before the move: finish the move now.
      if (entry.status === 'done' && this.options.doneDir) await moveInto(file, this.options.doneDir);
      return;
    }
    const kind = await kindOfFile(file);
    if (kind === undefined || !this.reads.includes(kind)) return this.skip(name, version, kind);
    const target = this.targetOf(file);
    // report.pdf and report.docx would both make out/report.pdf: the first keeps it.
    const owner = this.state.ownerOf(target.path, name);
    if (owner !== undefined)
      return this.failed(
        name,
        file,
        version,
        new ApiError('VALIDATION_ERROR', `Its result would replace that of ${owner} (${target.path}); rename one of them`),
      );
    const output = await fs.stat(target.path).catch(() => null);
    const decision = decide(entry, version, output && { inode: output.ino, mtimeMs: output.mtimeMs });
    if (decision.action === 'ignore') return;
    if (decision.action === 'record-done') return this.succeeded(name, version, target, 'recovered: its result was written before a restart');
    // The one thing at the target this run may replace: what this watcher published there for this input.
    const published = entry?.output === target.path ? entry.published : undefined;
    if (target.isDir && !(await mayReplaceDir(target.path, published))) return this.failed(name, file, version, notOurs(target.path));
    await this.state.set(name, {
      ...version,
      status: 'running',
      at: new Date().toISOString(),
      output: target.path,
      previousOutput: output?.ino ?? null,
      ...(published !== undefined && { published }),
    });
    await this.run(name, file, version, target, published);
  }

  private async run(name: string, file: string, version: Version, target: Target, published: number | undefined): Promise<void> {
    const started = performance.now();
    const partial = target.isDir ? await makePartialDir(this.options.outDir) : undefined;
    try {
      const body = { input: file, steps: this.options.steps, ...(partial ? { outputDir: partial } : { output: target.path }) };
      await this.pipeline.run(validateInput(this.pipeline.input, body), { ...this.context, signal: this.stop.signal, progress: undefined });
      if (partial) await publishDir(partial, target.path, published);
    } catch (err) {
      if (partial) await fs.rm(partial, { recursive: true, force: true }).catch(() => undefined);
      // Stopped: the entry stays `running` with nothing published; the next start runs it again.
      if (err instanceof CancelledError) return;
      return this.failed(name, file, version, err);
    }
    await this.succeeded(name, version, target, `${Math.round(performance.now() - started)} ms`);
  }

  private async succeeded(name: string, version: Version, target: Target, note: string): Promise<void> {
    const published = await fs.lstat(target.path).then(
      (stats) => stats.ino,
      () => undefined,
    );
    await this.state.set(name, {
      ...version,
      status: 'done',
      at: new Date().toISOString(),
      output: target.path,
      ...(published !== undefined && { published }),
    });
    // The record of an earlier failure of this name, in --out: ours. (One in --failed sits beside the input it is about.)
    if (!this.options.failedDir) await fs.rm(path.join(this.options.outDir, errorRecordName(name)), { force: true });
    const moved = this.options.doneDir ? await moveInto(path.join(this.options.inDir, name), this.options.doneDir) : name;
    this.options.log(`done ${name} → ${target.path} (${note})${movedNote(name, moved, '--done')}`);
  }

  private async failed(name: string, file: string, version: Version, err: unknown): Promise<void> {
    const { code, message } = toApiError(err);
    const at = new Date().toISOString();
    const failedDir = this.options.failedDir;
    // Moved first, under a name whose record name is free too: the record goes beside it.
    const moved = failedDir ? await moveInto(file, failedDir, errorRecordName) : name;
    await writeFileAtomically(
      path.join(failedDir ?? this.options.outDir, errorRecordName(moved)),
      `${JSON.stringify({ code, error: message, at }, null, 2)}\n`,
    );
    const entry: StateEntry = { ...version, status: 'failed', at, code };
    await this.state.set(name, entry);
    this.options.log(`failed ${name}: ${code}: ${message}${movedNote(name, moved, '--failed')}`);
  }

  private async skip(name: string, version: Version, kind: FileKind | undefined): Promise<void> {
    const entry = this.state.get(name);
    if (entry?.status === 'skipped' && sameVersion(entry, version)) return;
    await this.state.set(name, { ...version, status: 'skipped', at: new Date().toISOString() });
    const first = this.plan.steps[0]?.operation.id;
    this.options.log(`skipped ${name}: ${kind ? `a ${kind} file` : 'not a kind of file docwasm reads'}; step 1 (${first}) reads ${this.reads.join(' or ')}`);
  }

  private targetOf(file: string): Target {
    const last = this.plan.steps.at(-1);
    if (last?.makesMany) return { path: path.join(this.options.outDir, fileStem(file)), isDir: true };
    const extension = this.plan.steps.reduce((current, step) => step.extension ?? current, extensionOf(file));
    return { path: path.join(this.options.outDir, `${fileStem(file)}.${extension}`), isDir: false };
  }
}

/**
 * The kind of a file by its content where it has a signature, else by its extension. Its head is
 * read as the inputs of a request are (not waiting, a regular file only): a FIFO renamed onto
 * the name after the watcher saw a file cannot hold the watcher.
 */
async function kindOfFile(file: string): Promise<FileKind | undefined> {
  const info = await detectFormat({ path: file }, file).catch(() => undefined);
  const sniffed = info?.sniffed;
  const byContent = info?.content;
  // PDF, images and the packages of kinds of their own by their content, whatever their name. Office containers and text say
  // their kind by name (the step's own content check tells a liar), unless the name's kind has a
  // signature the bytes lack (a .pdf that is not a PDF).
  if (byContent && byContent.fileKind !== 'office') return byContent.fileKind;
  const named = formatOfExtension(extensionOf(file));
  const agrees = named !== undefined && (!('sniffed' in named.signature) || (sniffed !== undefined && named.signature.sniffed.includes(sniffed)));
  if (named && agrees) return named.fileKind;
  return sniffed === undefined && kindOfExtension(file) === 'text' ? 'text' : undefined;
}

/** Said when a moved input had to take a new name: its own was taken in that folder. */
const movedNote = (name: string, moved: string, flag: string) =>
  moved === name ? '' : `; kept in ${flag} as "${moved}" (a file named ${name} is there already)`;
