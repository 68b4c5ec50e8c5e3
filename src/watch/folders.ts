// The folders of a watch, checked before anything is watched. Results, moved inputs and error
// records must never share a name: a result dir named `done` would replace the --done folder
// with every input moved there, an input moved into --out would be replaced by a result of
// its stem, a record `<name>.error.json` would replace an input of that name in a shared
// --done/--failed folder. So --out, --done and --failed are each a folder of their own, none
// inside another (compared by real path: a symlink to a folder is that folder), and none is
// the watched folder or holds it. Inside the watched folder they are fine: the watcher takes
// only the files directly in it, never a subfolder.

import fs from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../config.js';
import { isInside } from '../files/paths.js';

export interface WatchFolders {
  inDir: string;
  outDir: string;
  doneDir: string | undefined;
  failedDir: string | undefined;
}

interface Folder {
  flag: string;
  /** What the user gave, for messages. */
  shown: string;
  absolute: string;
  /** With every symlink resolved. */
  real: string;
}

/** Why `inner` may not be (or be inside) `outer`, by the flags of both. */
const HARM: Readonly<Record<string, string>> = {
  '--out=--done': 'a result could replace an input moved there',
  '--out=--failed': 'a result could replace an input moved there',
  '--done=--failed': "an input's error record could replace an input moved there",
  '--done<--out': 'a result folder named like it (from an input called "done.pdf", say) would replace it, and the inputs in it',
  '--failed<--out': 'a result folder named like it would replace it, and the inputs in it',
  '--out<--done': 'results and moved inputs must not share a folder',
  '--out<--failed': 'results and moved inputs must not share a folder',
  '--failed<--done': 'moved inputs of the two kinds must not share a folder',
  '--done<--failed': 'moved inputs of the two kinds must not share a folder',
  'inDir<--out': 'a result folder named like the watched folder would replace it',
};

/** Throws a ConfigError saying which two folders clash and why; resolves when they do not. */
export async function checkWatchFolders(given: WatchFolders, shown: Partial<Record<keyof WatchFolders, string>>): Promise<void> {
  const folder = async (key: keyof WatchFolders, flag: string): Promise<Folder | undefined> => {
    const dir = given[key];
    if (dir === undefined) return undefined;
    const absolute = path.resolve(dir);
    return { flag, shown: shown[key] ?? dir, absolute, real: await realFolderPath(absolute) };
  };
  const [watched, ...kept] = await Promise.all([
    folder('inDir', 'inDir'),
    folder('outDir', '--out'),
    folder('doneDir', '--done'),
    folder('failedDir', '--failed'),
  ]);
  const outputs = kept.filter((entry): entry is Folder => entry !== undefined);
  for (const output of outputs) {
    if (output.real === watched?.real) throw new ConfigError(`${output.flag} must not be the watched folder itself: its files would be taken for new inputs`);
    if (watched && isInside(watched.real, output.real)) refuse(watched, output, 'inDir');
  }
  for (const [i, a] of outputs.entries()) {
    for (const b of outputs.slice(i + 1)) {
      if (a.real === b.real)
        throw new ConfigError(`${a.flag} ${a.shown} and ${b.flag} ${b.shown} are the same folder${sameBy(a, b)}: ${HARM[`${a.flag}=${b.flag}`]}`);
      if (isInside(a.real, b.real)) refuse(a, b, a.flag);
      if (isInside(b.real, a.real)) refuse(b, a, b.flag);
    }
  }
}

function refuse(inner: Folder, outer: Folder, innerFlag: string): never {
  const which = innerFlag === 'inDir' ? `The watched folder ${inner.shown}` : `${inner.flag} ${inner.shown}`;
  throw new ConfigError(
    `${which} is inside ${outer.flag} ${outer.shown}${sameBy(inner, outer)}: ${HARM[`${innerFlag}<${outer.flag}`] ?? 'each folder must be one of its own'}; give folders side by side`,
  );
}

/** ` (both resolve to /real)`-style detail where a symlink hides the clash. */
function sameBy(a: Folder, b: Folder): string {
  return a.real === a.absolute && b.real === b.absolute ? '' : ` (through a symlink: ${a.real} and ${b.real})`;
}

/** Symlinks followed before giving up (the kernel's own limit is 40). */
const MAX_LINKS = 40;

/**
 * Where `absolute` is or will be once made: its real path, or, for a folder not made yet, the
 * real path of its deepest existing ancestor with the rest appended, following a dangling
 * symlink to where it points (`done -> out` before out exists is still out).
 */
async function realFolderPath(absolute: string, links = 0): Promise<string> {
  const real = await fs.realpath(absolute).catch(() => undefined);
  if (real !== undefined) return real;
  const target = links < MAX_LINKS ? await fs.readlink(absolute).catch(() => undefined) : undefined;
  if (target !== undefined) return realFolderPath(path.resolve(path.dirname(absolute), target), links + 1);
  const parent = path.dirname(absolute);
  return parent === absolute ? absolute : path.join(await realFolderPath(parent, links), path.basename(absolute));
}
