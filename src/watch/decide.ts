// What to do with a file the watcher sees, from the state file, the input's size and mtime, and
// what stands at its output. The window that matters is between publishing an output (a rename)
// and recording it: a `running` entry is on disk before any work, holding the inode of what was
// at the output then (or null). After a crash, an output whose inode differs was published by
// that run (a rename always brings a new inode: the temp file existed beside the old one), so the
// file is done; the same inode, or nothing, means the run published nothing and it runs again.
// Publishing is all-or-nothing (one rename), so there is no half-published state to consider.

import type { StateEntry, Version } from './state.js';

export type Decision =
  /** Handled already, in this version: nothing to do. */
  | { action: 'ignore' }
  /** The output of this version was published but not recorded (a crash in the window). */
  | { action: 'record-done' }
  | { action: 'process' };

export const sameVersion = (a: Version, b: Version): boolean => a.size === b.size && a.mtimeMs === b.mtimeMs;

/**
 * `outputInode`: the inode at the file's output now (null: nothing there); `outputMtimeMs` its
 * mtime. Without any entry (a state file lost or removed), an output newer than the input is
 * taken as this input's result rather than made again.
 */
export function decide(entry: StateEntry | undefined, input: Version, output: { inode: number; mtimeMs: number } | null): Decision {
  if (entry === undefined) return output !== null && output.mtimeMs >= input.mtimeMs ? { action: 'record-done' } : { action: 'process' };
  if (!sameVersion(entry, input)) return { action: 'process' };
  if (entry.status !== 'running') return { action: 'ignore' };
  return output !== null && output.inode !== entry.previousOutput ? { action: 'record-done' } : { action: 'process' };
}
