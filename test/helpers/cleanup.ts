// What a test file creates and must remove: its temp dirs and the services it spawned. The
// per-file setup (test/setup/per-file.ts) calls `cleanUpTestFile` after the file's own hooks.

import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';

const dirs = new Set<string>();
const children = new Set<ChildProcess>();

/** A temp dir to remove when the test file ends. */
export function removeAtEnd(dir: string): string {
  dirs.add(dir);
  return dir;
}

/** A spawned process to stop (SIGTERM, then SIGKILL) if it still runs when the test file ends. */
export function stopAtEnd(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

const STOP_GRACE_MS = 20_000;

export async function cleanUpTestFile(): Promise<void> {
  await Promise.all([...children].map((child) => stop(child)));
  for (const dir of dirs) {
    // A read-only dir (a fault test's) must be made writable again before its entries can go.
    makeWritable(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  dirs.clear();
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function makeWritable(dir: string): void {
  try {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (entry.isDirectory()) fs.chmodSync(`${entry.parentPath}/${entry.name}`, 0o755);
    }
    fs.chmodSync(dir, 0o755);
  } catch {
    /* gone, or not ours to change */
  }
}
