// soffice is a launcher (oosplash) that forks soffice.bin: killing the launcher's PID would
// orphan soffice.bin holding the profile. Every soffice we start gets its own process group
// (its own tree on Windows) and is always killed as a whole. A last-resort exit hook makes
// sure no group outlives the service, even when it stops on an uncaught error.

import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';

const liveGroups = new Set<ChildProcess>();
let exitHookInstalled = false;

export function spawnGroup(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  installExitHook();
  const child = spawn(command, args, { ...options, detached: true, windowsHide: true });
  liveGroups.add(child);
  child.once('exit', () => liveGroups.delete(child));
  child.once('error', () => liveGroups.delete(child));
  return child;
}

/** SIGKILLs the whole group of `child` (synchronously, so it also works during exit). */
export function killGroup(child: ChildProcess): void {
  const pid = child.pid;
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    else process.kill(-pid, 'SIGKILL');
  } catch {
    /* the group is already gone */
  }
  // The group leader may be gone while soffice.bin lives on in its group; the kill above
  // reached it anyway. Forget the child only once Node saw it exit.
}

/** Resolves when `child` has exited (immediately if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
}

export function killAllGroups(): void {
  for (const child of liveGroups) killGroup(child);
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', killAllGroups);
}
