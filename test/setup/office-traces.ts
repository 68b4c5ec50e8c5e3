// What LibreOffice leaves outside TMPDIR, for the global teardown (global.ts): its
// single-instance sockets /tmp/OSL_PIPE_<uid>_SingleOfficeIPC_<md5 of the profile URL> (made in
// /tmp whatever TMPDIR says, left behind by an office that was killed), an X display lock, and a
// default profile (~/.config/libreoffice) written by an office started without
// -env:UserInstallation. A socket is this run's when its name is that of a profile inside the
// run's temp root that an office seen running during the run used; other new ones cannot be
// told from another run's.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { officePipePath } from '../../src/installed-office/office-pipe.js';

const PIPE_DIR = '/tmp';
/** Any user's: the fault tests run services as an unprivileged user, whose uid the name carries. */
const PIPE = /^OSL_PIPE_\d+_(SingleOfficeIPC_[0-9a-f]+)$/;
const X_LOCK = /^\.X\d+-lock$/;
const PROFILE_URL = /-env:UserInstallation=([^\0]+)/;

export interface OfficeLeftovers {
  /** Sockets named after a profile of this run. */
  ours: string[];
  /** New sockets, X locks and default-profile writes that name no profile of this run. */
  unattributed: string[];
}

export class OfficeTraces {
  private readonly before = new Set(systemEntries());
  private readonly defaultProfileBefore = defaultProfileStamp();
  /** `SingleOfficeIPC_<hash>` → the profile URL of this run it belongs to. */
  private readonly ownPipes = new Map<string, string>();

  constructor(private readonly root: string) {}

  /** Notes the profile of an office (any process whose command line names one) seen running. */
  noteCommandLine(cmdline: string): void {
    const url = PROFILE_URL.exec(cmdline)?.[1];
    if (url === undefined || !url.startsWith('file:')) return;
    let dir: string;
    try {
      dir = fileURLToPath(url);
    } catch {
      return;
    }
    if (!dir.startsWith(this.root + path.sep)) return;
    const name = PIPE.exec(path.basename(officePipePath(url) ?? ''))?.[1];
    if (name !== undefined) this.ownPipes.set(name, url);
  }

  leftovers(): OfficeLeftovers {
    const listening = listeningSockets();
    const ours: string[] = [];
    const unattributed: string[] = [];
    for (const name of systemEntries()) {
      if (this.before.has(name)) continue;
      const file = path.join(PIPE_DIR, name);
      const profile = this.ownPipes.get(PIPE.exec(name)?.[1] ?? '');
      if (profile !== undefined) ours.push(`${file} (office profile ${profile}${listening.has(file) ? ', the office still runs' : ''})`);
      // A socket something still listens on is a running office (a user's, another run's), not debris.
      else if (!listening.has(file)) unattributed.push(file);
    }
    const stamp = defaultProfileStamp();
    if (stamp !== undefined && stamp !== this.defaultProfileBefore) unattributed.push(`${defaultProfileDir()} (an office ran without a profile of its own)`);
    return { ours, unattributed };
  }
}

/** The OSL pipes and X display locks in /tmp. */
function systemEntries(): string[] {
  return fs.readdirSync(PIPE_DIR).filter((name) => PIPE.test(name) || X_LOCK.test(name));
}

/** Paths of the Unix sockets bound in this network namespace (a stale socket file is not among them). */
function listeningSockets(): Set<string> {
  try {
    const rows = fs.readFileSync('/proc/net/unix', 'utf8').split('\n').slice(1);
    return new Set(rows.map((row) => row.trim().split(/\s+/)[7]).filter((p): p is string => p !== undefined && p.startsWith('/')));
  } catch {
    return new Set();
  }
}

function defaultProfileDir(): string {
  return path.join(process.env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'libreoffice');
}

/** When the default profile was last written (its registry is rewritten by every office that exits); undefined if there is none. */
function defaultProfileStamp(): number | undefined {
  for (const file of [path.join(defaultProfileDir(), '4', 'user', 'registrymodifications.xcu'), defaultProfileDir()]) {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat) return stat.mtimeMs;
  }
  return undefined;
}
