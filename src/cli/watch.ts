// `docwasm watch <inDir> --steps steps.json --out <dir> …` and `docwasm serve --watch <inDir> …`:
// the watched-folder door (src/watch/watcher.ts) on the same runtime as the other doors. Log
// lines (one per file) go to stderr; on a terminal a progress line is kept below them.

import fs from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../config.js';
import { ApiError } from '../../core/errors.js';
import { resolveOutputPath } from '../files/paths.js';
import { createRuntime } from '../operations/context.js';
import { OPERATIONS } from '../operations/index.js';
import type { OperationContext } from '../operations/operation.js';
import type { StepBody } from '../pipeline/plan.js';
import { checkWatchFolders } from '../watch/folders.js';
import { fileSystemToPoll } from '../watch/fs-type.js';
import { escapeControls } from '../watch/names.js';
import { startWatcher, type Watcher } from '../watch/watcher.js';
import { configFromFlags, flagHelpLines, flagOptions, flagsFor, helpLine } from '../config.js';

/** A watcher runs the engines as `mcp` does: every option but the HTTP ones. */
const RUNTIME_FLAGS = flagsFor({ door: 'mcp' });
import { parseCommandLine } from '../command-line.js';
import { progressLine } from './progress.js';

/** The options of a watched folder, shared by `watch` and `serve --watch`. */
export const WATCH_OPTIONS = {
  steps: { type: 'string' },
  out: { type: 'string' },
  failed: { type: 'string' },
  done: { type: 'string' },
  concurrency: { type: 'string' },
  settle: { type: 'string' },
  poll: { type: 'boolean' },
} as const;

export const WATCH_HELP_LINES = [
  helpLine('--steps FILE.json', 'the pipeline each file runs through: [{operation, ...fields}] (required)'),
  helpLine('--out DIR', 'results go here as <stem>.<ext>, with the state file .docwasm-watch.json (required)'),
  helpLine('--failed DIR', 'failed inputs are moved here, beside their <name>.error.json (default: not moved; the record goes to --out)'),
  helpLine('--done DIR', 'inputs are moved here after success (default: left in place); a taken name becomes "name (2).ext"'),
  helpLine('--concurrency N', 'files run at once (default: --workers)'),
  helpLine('--settle SECONDS', 'a file is touched once its size has not changed for this long (default 2)'),
  helpLine('--poll', 'poll the folder instead of OS events (automatic on NFS, SMB/CIFS and FUSE mounts on Linux)'),
];

const WATCH_USAGE = `Usage: docwasm watch <inDir> --steps steps.json --out <dir> [options]

Runs every file that appears in <inDir> through a pipeline; results are written atomically to
--out under the input's stem. Inputs are never modified, deleted or written over: --out, --done
and --failed must be folders of their own (none inside another). One watcher per folder. Stop
with Ctrl-C.

Options:
${WATCH_HELP_LINES.join('\n')}
  -h, --help               show this help

Engine options (each also read from its environment variable):
${flagHelpLines(RUNTIME_FLAGS).join('\n')}
`;

type Values = Record<string, string | boolean | string[] | undefined>;

export async function runWatchCommand(args: string[]): Promise<number | undefined> {
  const { values, positionals } = parseCommandLine({
    args,
    allowPositionals: true,
    options: { ...WATCH_OPTIONS, ...flagOptions(RUNTIME_FLAGS), help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(WATCH_USAGE);
    return 0;
  }
  if (positionals.length !== 1) throw new ConfigError(`watch takes one folder to watch, got ${positionals.length === 0 ? 'none' : positionals.join(' ')}`);
  const runtime = await createRuntime(configFromFlags(values, RUNTIME_FLAGS));
  let watcher: WatchedFolder;
  try {
    watcher = await startWatchedFolder(positionals[0] as string, values as Values, runtime);
  } catch (err) {
    await runtime.close();
    if (!(err instanceof ApiError)) throw err;
    process.stderr.write(`docwasm: ${err.code}: ${err.message}\n`);
    return err.code === 'VALIDATION_ERROR' ? 2 : 1;
  }
  let stopping = false;
  const stop = () => {
    // One Ctrl-C reaches a watcher started again with the malloc settings twice: from the terminal and from its launcher.
    if (stopping) return;
    stopping = true;
    watcher.log('stopping');
    watcher
      .close()
      .then(() => runtime.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  watcher.announce();
  return undefined;
}

/** A watcher, and its log (which clears the progress line before it writes). */
export interface WatchedFolder extends Watcher {
  log(line: string): void;
  /**
   * Logs the `watching …` line: called once the caller's SIGINT/SIGTERM handlers are set, since
   * scripts stop a watcher as soon as it says it watches, and a signal before the handlers killed
   * it outright with its folder locks left behind.
   */
  announce(): void;
}

/** Starts watching `inDir` with the watch options in `values`; relative paths resolve against the base dir. */
export async function startWatchedFolder(inDir: string, values: Values, context: OperationContext): Promise<WatchedFolder> {
  const dir = (value: unknown) => (typeof value === 'string' ? resolveOutputPath(context.paths, value) : Promise.resolve(undefined));
  if (typeof values.steps !== 'string') throw new ConfigError('watch needs --steps steps.json');
  if (typeof values.out !== 'string') throw new ConfigError('watch needs --out <dir>');
  const [watched, outDir, failedDir, doneDir] = await Promise.all([dir(inDir), dir(values.out), dir(values.failed), dir(values.done)]);
  const stats = await fs.stat(watched as string).catch(() => undefined);
  if (!stats?.isDirectory()) throw new ConfigError(`${inDir} is not a folder`);
  await checkWatchFolders(
    { inDir: watched as string, outDir: outDir as string, doneDir, failedDir },
    { inDir, outDir: values.out, doneDir: values.done as string | undefined, failedDir: values.failed as string | undefined },
  );
  const settleSeconds = positiveNumber(values.settle, 'settle', 2);
  const concurrency = Math.floor(positiveNumber(values.concurrency, 'concurrency', context.config.workers));
  const networkFs = await fileSystemToPoll(watched as string);
  const progress = progressLine('docwasm watch');
  const log = (line: string) => {
    progress?.finish();
    // File names are the senders': one line each, whatever they hold.
    process.stderr.write(`docwasm watch: ${escapeControls(line)}\n`);
  };
  const pipeline = OPERATIONS.find((op) => op.id === 'pipeline');
  if (!pipeline) throw new Error('The pipeline operation is missing');
  const options = {
    inDir: watched as string,
    outDir: outDir as string,
    failedDir,
    doneDir,
    steps: await readSteps(values.steps),
    concurrency,
    settleMs: settleSeconds * 1000,
    poll: values.poll === true || networkFs !== undefined,
    log,
    progress: progress?.update,
  };
  const watcher = await startWatcher(options, pipeline, OPERATIONS, context);
  await watcher.ready;
  const announce = () =>
    log(
      `watching ${options.inDir} → ${options.outDir} (${concurrency} at a time, settle ${settleSeconds} s, ${options.poll ? `polling${networkFs ? ` (${networkFs} file system)` : ''}` : 'OS events'})`,
    );
  return { ready: watcher.ready, close: () => watcher.close(), log, announce };
}

async function readSteps(file: string): Promise<StepBody[]> {
  const text = await fs.readFile(path.resolve(file), 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new ConfigError(`--steps: cannot read ${file} (${err.code ?? err.message})`);
  });
  try {
    return JSON.parse(text) as StepBody[];
  } catch (err) {
    throw new ConfigError(`--steps: ${file} is not JSON (${(err as Error).message})`);
  }
}

function positiveNumber(raw: unknown, flag: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || String(raw).trim() === '') throw new ConfigError(`--${flag} must be a positive number, got "${String(raw)}"`);
  return value;
}
