// vitest globalSetup: the whole run gets a private temp root. TMPDIR/TEMP/TMP point at it before
// any test worker, service or LibreOffice starts, so every mkdtemp of the tests and of the
// processes they spawn lands there. At the end the run fails, listing them, if anything was
// left in the root, or if entries our code names (docwasm-*, LibreOffice's lu*.tmp) appeared
// in the system temp dir meanwhile, or LibreOffice's sockets and profile outside TMPDIR
// (office-traces.ts).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parentOf } from '../reliability/proc.js';
import { OfficeTraces } from './office-traces.js';
import { MALLOC_TUNABLES } from '../../src/cli/malloc-restart.js';

/** Names docwasm, its tests and LibreOffice give their temp entries. */
const OURS = /^(docwasm-|lu.*\.tmp$)/;

const systemTmp = os.tmpdir();
let root = '';
let before = new Set<string>();
const ENV_NAMES = ['TMPDIR', 'TEMP', 'TMP', 'DOCWASM_TEST_RUN_ROOT'] as const;
const saved = new Map<string, string | undefined>();

function ourEntries(): string[] {
  return fs.readdirSync(systemTmp).filter((name) => OURS.test(name));
}

/** PIDs of docwasm services, test runners or offices of another run seen during this one. */
const otherRuns = new Set<number>();
let watch: NodeJS.Timeout | undefined;
/** This process and the ones that started it (npm, npx): their environment predates the setup. */
const ancestors = new Set<number>();
let officeTraces: OfficeTraces | undefined;

export function setup(): void {
  before = new Set(ourEntries());
  for (let pid: number | undefined = process.pid; pid !== undefined && pid > 1; pid = parentOf(pid)) ancestors.add(pid);
  watch = setInterval(noteOtherRuns, 1_000).unref();
  root = fs.mkdtempSync(path.join(systemTmp, 'docwasm-run-'));
  officeTraces = new OfficeTraces(root);
  // Like /tmp: services the fault tests run as an unprivileged user must reach and use it.
  fs.chmodSync(root, 0o1777);
  for (const name of ENV_NAMES) {
    saved.set(name, process.env[name]);
    process.env[name] = root;
  }
  // The services the tests start serve in the process the test spawned, as the service runs once
  // it started itself again with these settings (src/cli/malloc-restart.ts): a test's child pid is
  // the service. The restart itself is tested with it unset (test/packaging/launcher-malloc.test.ts).
  saved.set('GLIBC_TUNABLES', process.env.GLIBC_TUNABLES);
  process.env.GLIBC_TUNABLES ??= MALLOC_TUNABLES;
}

export function teardown(): void {
  clearInterval(watch);
  noteOtherRuns();
  for (const name of [...ENV_NAMES, 'GLIBC_TUNABLES']) {
    const value = saved.get(name);
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  const leftInRoot = fs.readdirSync(root, { recursive: true }).map((entry) => path.join(root, String(entry)));
  fs.rmSync(root, { recursive: true, force: true });
  const appeared = ourEntries().filter((name) => !before.has(name) && path.join(systemTmp, name) !== root && !ownedByAnotherRun(name));
  const problems = leftInRoot.length > 0 ? [`left in the run's temp root ${root}:`, ...leftInRoot.map((p) => `  ${p}`)] : [];
  if (appeared.length > 0) {
    // Another docwasm run on this machine (without this setup) makes the same names: then the
    // entries cannot be told apart, and they are reported without failing the run.
    problems.push(...unlessOtherRuns([`appeared in ${systemTmp} during the run (a temp dir that ignores TMPDIR?):`, ...appeared.map((n) => `  ${n}`)]));
  }
  const office = officeTraces?.leftovers() ?? { ours: [], unattributed: [] };
  if (office.ours.length > 0) problems.push('LibreOffice sockets of offices this run started, left in /tmp:', ...office.ours.map((p) => `  ${p}`));
  if (office.unattributed.length > 0)
    problems.push(
      ...unlessOtherRuns([
        'appeared during the run (LibreOffice outside TMPDIR, of no profile seen in this run):',
        ...office.unattributed.map((p) => `  ${p}`),
      ]),
    );
  if (problems.length > 0) {
    // vitest reports an error thrown here but keeps exit code 0: set it ourselves.
    process.exitCode = 1;
    throw new Error(`Tests left files behind.\n${problems.join('\n')}`);
  }
}

/** `lines` as problems, or only printed when another run may have made what they list. */
function unlessOtherRuns(lines: string[]): string[] {
  if (otherRuns.size === 0) return lines;
  process.stderr.write(`${lines.join('\n')}\n  (not counted: other docwasm runs were active meanwhile, PIDs ${[...otherRuns].slice(0, 10).join(', ')})\n`);
  return [];
}

/** Notes processes of other runs: docwasm services, vitest, soffice, whose TMPDIR is not ours. */
function noteOtherRuns(): void {
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (otherRuns.has(pid) || ancestors.has(pid)) continue;
    let cmdline: string;
    try {
      cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    officeTraces?.noteCommandLine(cmdline);
    if (!/vitest|cli\/main\.js|soffice/.test(cmdline)) continue;
    const tmp = readEnviron(pid)?.get('TMPDIR') ?? '';
    if (!tmp.startsWith(root)) otherRuns.add(pid);
  }
}

/**
 * LibreOffice's lu<pid>….tmp and docwasm's docwasm-soffice-<pid>-… name a live process: when that
 * process runs with another TMPDIR than ours, the entry belongs to another run on this machine.
 */
function ownedByAnotherRun(name: string): boolean {
  const pid = /^docwasm-soffice-(\d+)-/.exec(name)?.[1] ?? /^lu(\d+)/.exec(name)?.[1];
  if (pid === undefined) return false;
  // lu<pid><random>: the random part may begin with digits, so try every prefix.
  for (let end = pid.length; end >= 2; end--) {
    const environ = readEnviron(Number(pid.slice(0, end)));
    if (environ !== undefined) return !(environ.get('TMPDIR') ?? '').startsWith(root);
  }
  return false;
}

function readEnviron(pid: number): Map<string, string> | undefined {
  try {
    const raw = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
    return new Map(
      raw
        .split('\0')
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    );
  } catch {
    return undefined;
  }
}
