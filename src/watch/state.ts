// The watcher's memory, `<out>/.docwasm-watch.json`: per input name, the size and mtime of the
// version last handled and what became of it. It is written atomically (temp file, fsync,
// rename) before a file's work starts (`running`, with the identity of any output already at
// the target) and after it ends, so a restart — even after `kill -9` — can tell, for each file,
// whether its output was published: see decide() in ./decide.ts.

import fs from 'node:fs/promises';
import path from 'node:path';
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

  /** Loads `<out>/.docwasm-watch.json`, or starts empty; a file that is not ours is an error, not overwritten. */
  static async open(outDir: string): Promise<WatchState> {
    const file = path.join(outDir, STATE_FILE);
    await fs.mkdir(outDir, { recursive: true });
    const text = await fs.readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (text === undefined) return new WatchState(file, new Map());
    const parsed = JSON.parse(text) as Partial<StateFile>;
    if (parsed.version !== 1 || typeof parsed.files !== 'object' || parsed.files === null) throw new Error(`${file} is not a docwasm watch state file`);
    return new WatchState(file, new Map(Object.entries(parsed.files)));
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
    for (const [name, entry] of this.files) if (name !== except && entry.output === output && (entry.status === 'done' || entry.status === 'running')) return name;
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
