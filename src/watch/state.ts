// The watcher's memory, `<out>/.docwasm-watch.json`: per input name, the size and mtime of the
// version last handled and what became of it. It is written atomically (temp file, fsync,
// rename) before a file's work starts (`running`, with the identity of any output already at
// the target) and after it ends, so a restart — even after `kill -9` — can tell, for each file,
// whether its output was published: see decide() in ./decide.ts. A state file that cannot be
// read as one (cut short by a full disk, edited by hand) is kept aside, never overwritten, and
// the watcher starts afresh: results already in --out are recognised by decide(), files that
// failed are tried once more, nothing is lost or deleted.

import fs from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../config.js';
import { writeFileAtomically } from './files.js';

export const STATE_FILE = '.docwasm-watch.json';

export type EntryStatus = 'running' | 'done' | 'failed' | 'skipped';

/** An input version: what tells a changed file from the one handled. */
export interface Version {
  size: number;
  mtimeMs: number;
}

export interface StateEntry extends Version {
  status: EntryStatus;
  /** ISO time of the last change of status. */
  at: string;
  /** Where the result goes (a file, or a dir for chains that make several files). */
  output?: string;
  /** `running`: the inode of what stood at `output` when the work began (null: nothing). */
  previousOutput?: number | null;
  /** The inode of the result this watcher published for this input: the one thing at `output` it may replace. */
  published?: number;
  code?: string;
}

interface StateFile {
  version: 1;
  files: Record<string, StateEntry>;
}

export class WatchState {
  private writing: Promise<void> = Promise.resolve();
  /** A write queued behind the one running, not started yet: later changes ride along with it. */
  private queued: Promise<void> | undefined;

  private constructor(
    private readonly file: string,
    private readonly files: Map<string, StateEntry>,
  ) {}

  /**
   * Loads `<out>/.docwasm-watch.json`, or starts empty. One that is not a state file is renamed
   * `.docwasm-watch.json.bad-<time>` and the state starts empty; `note` says so in one line.
   */
  static async open(outDir: string, note: (line: string) => void): Promise<WatchState> {
    const file = path.join(outDir, STATE_FILE);
    await fs.mkdir(outDir, { recursive: true });
    const text = await fs.readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw new ConfigError(`Cannot read the state file ${file} (${err.code ?? err.message})`);
    });
    if (text === undefined) return new WatchState(file, new Map());
    const files = parseState(text);
    if (typeof files === 'string') {
      const aside = `${file}.bad-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      await fs.rename(file, aside);
      note(
        `the state file ${file} is damaged (${files}); kept as ${path.basename(aside)}, starting afresh: results already in ${outDir} count as done, failed files are tried again`,
      );
      return new WatchState(file, new Map());
    }
    return new WatchState(file, files);
  }

  get(name: string): StateEntry | undefined {
    return this.files.get(name);
  }

  /** Records an entry; resolves once the state file holding it is on disk. */
  set(name: string, entry: StateEntry): Promise<void> {
    this.files.set(name, entry);
    return this.flush();
  }

  /** Another input whose result is (or is being) written at `output`. */
  ownerOf(output: string, except: string): string | undefined {
    for (const [name, entry] of this.files)
      if (name !== except && entry.output === output && (entry.status === 'done' || entry.status === 'running')) return name;
    return undefined;
  }

  /** Writes go one after another; each writes the whole map as it is when it starts. */
  private flush(): Promise<void> {
    if (this.queued) return this.queued;
    const next = this.writing
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.write();
      });
    this.queued = next;
    this.writing = next;
    return next;
  }

  private write(): Promise<void> {
    const body: StateFile = { version: 1, files: Object.fromEntries([...this.files].sort(([a], [b]) => (a < b ? -1 : 1))) };
    return writeFileAtomically(this.file, `${JSON.stringify(body, null, 1)}\n`);
  }
}

const STATUSES: ReadonlySet<string> = new Set<EntryStatus>(['running', 'done', 'failed', 'skipped']);

/** The entries of a state file, or what is wrong with it. */
function parseState(text: string): Map<string, StateEntry> | string {
  let parsed: Partial<StateFile>;
  try {
    parsed = JSON.parse(text) as Partial<StateFile>;
  } catch (err) {
    return `not JSON: ${(err as Error).message}`;
  }
  if (parsed?.version !== 1 || typeof parsed.files !== 'object' || parsed.files === null || Array.isArray(parsed.files))
    return 'not a docwasm watch state, version 1';
  const entries = Object.entries(parsed.files);
  const bad = entries.find(([, entry]) => !isEntry(entry));
  return bad ? `the entry of ${JSON.stringify(bad[0])} is not one` : new Map(entries);
}

function isEntry(value: unknown): value is StateEntry {
  const entry = value as Partial<StateEntry> | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    Number.isFinite(entry.size) &&
    Number.isFinite(entry.mtimeMs) &&
    typeof entry.status === 'string' &&
    STATUSES.has(entry.status)
  );
}
