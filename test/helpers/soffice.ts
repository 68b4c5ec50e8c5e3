// LibreOffice run by tests and benches to make fixtures (never docwasm): one way to run it, with
// a private profile, that removes what LibreOffice leaves outside that profile. Its
// single-instance socket, /tmp/OSL_PIPE_<uid>_SingleOfficeIPC_<md5 of the profile URL>, is made
// in /tmp whatever TMPDIR says, and stays there when the office is killed or crashes; so do its
// lu<pid>….tmp dirs, which go to a TMPDIR of its own here (fixtures/remake.ts runs without the
// test run's private temp root).

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { officePipePath } from '../../src/installed-office/office-pipe.js';

export const SOFFICE = process.env.DOCWASM_TEST_SOFFICE ?? '/usr/bin/soffice';

/** A conversion takes seconds; this bounds a hung office (a fixture build must not hang the run). */
const RUN_TIMEOUT_MS = 10 * 60_000;

/** The `-env:UserInstallation` argument for a profile dir. */
export function profileArgument(profileDir: string): string {
  return `-env:UserInstallation=${pathToFileURL(profileDir).href}`;
}

/** Removes the /tmp socket of an office that used `profileDir` (none exists once a clean office exits), and its temp dir. */
export function removeOfficeLeftovers(profileDir: string): void {
  const pipe = officePipePath(pathToFileURL(profileDir).href);
  if (pipe !== undefined) fs.rmSync(pipe, { force: true });
  fs.rmSync(officeTmp(profileDir), { recursive: true, force: true });
}

/** The temp dir of an office on `profileDir` (beside it), made for it. */
function officeTmp(profileDir: string): string {
  return `${profileDir}.tmp`;
}

function officeEnv(profileDir: string): NodeJS.ProcessEnv {
  const tmp = officeTmp(profileDir);
  fs.mkdirSync(tmp, { recursive: true });
  return { ...process.env, TMPDIR: tmp, TEMP: tmp, TMP: tmp };
}

/**
 * Runs `soffice --headless --norestore <args>` on the profile `profileDir` and waits for it;
 * throws when it fails. Its socket and temp dir are removed afterwards, whatever the outcome.
 */
export function runSoffice(profileDir: string, args: readonly string[], cwd?: string): void {
  try {
    execFileSync(SOFFICE, [profileArgument(profileDir), '--headless', '--norestore', ...args], {
      cwd,
      env: officeEnv(profileDir),
      stdio: 'ignore',
      timeout: RUN_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    });
  } finally {
    removeOfficeLeftovers(profileDir);
  }
}

/** The same without blocking the event loop (several launchers forwarding to one warm office). */
export function runSofficeAsync(profileDir: string, args: readonly string[]): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const launcher = spawn(SOFFICE, [profileArgument(profileDir), '--headless', '--norestore', ...args], {
      env: officeEnv(profileDir),
      stdio: 'ignore',
      timeout: RUN_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    });
    launcher.once('error', reject);
    launcher.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`soffice ${args.join(' ')} exited ${code}`))));
  });
}

/**
 * An office left running on `profileDir` (in its own process group) until `stopOffice`: later
 * launchers on the same profile forward to it.
 */
export function startOffice(profileDir: string, args: readonly string[]): ChildProcess {
  return spawn(SOFFICE, [profileArgument(profileDir), '--headless', '--invisible', '--norestore', '--nologo', '--nodefault', ...args], {
    detached: true,
    env: officeEnv(profileDir),
    stdio: 'ignore',
  });
}

/** Kills an office of `startOffice`, group and all, waits for it, and removes its socket and temp dir. */
export async function stopOffice(office: ChildProcess, profileDir: string): Promise<void> {
  const exited = office.exitCode !== null || office.signalCode !== null ? Promise.resolve() : new Promise((resolve) => office.once('exit', resolve));
  try {
    if (office.pid) process.kill(-office.pid, 'SIGKILL');
  } catch {
    /* gone */
  }
  await exited;
  removeOfficeLeftovers(profileDir);
}
