// What the OS says about the service process (Linux /proc): resident memory, open file
// descriptors, its child processes, and any LibreOffice process that names its temp dir.

import fs from 'node:fs';

/** Resident set size of `pid` in MiB; 0 for a zombie (its status has no VmRSS: it holds no memory). */
export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

export function fdCount(pid: number): number {
  return fs.readdirSync(`/proc/${pid}/fd`).length;
}

export function parentOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces or parentheses: the fields start after the last ')'.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function allPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Every live process below `pid` (children, grandchildren, …), zombies included. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const p of allPids()) {
    const parent = parentOf(p);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), p]);
  }
  const found: number[] = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift() as number;
    found.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return found;
}

/**
 * LibreOffice processes started by the service `servicePid`, wherever they were reparented to:
 * their command lines name the service's private dir `docwasm-soffice-<pid>-…`.
 */
export function officeProcessesOf(servicePid: number): number[] {
  const marker = `docwasm-soffice-${servicePid}-`;
  return allPids().filter((p) => p !== process.pid && commandLine(p).includes(marker) && !isZombieOrGone(p));
}

/** True for a zombie, or a process that is gone (its /proc entry cannot be read). */
export function isZombieOrGone(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Samples the RSS of `pid` every `everyMs` until stopped; returns the peak in MiB. */
export function watchRss(pid: number, everyMs = 50): { stop: () => number } {
  let peak = 0;
  const sample = () => {
    try {
      peak = Math.max(peak, rssMb(pid));
    } catch {
      /* the process is gone */
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

export async function waitUntil(check: () => boolean, timeoutMs: number, everyMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return check();
}

/** Peak resident set size of `pid` in MiB since it started or since `resetPeakRss`. */
export function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Starts a new peak (Linux: writing 5 to clear_refs resets VmHWM to the current RSS). */
export function resetPeakRss(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/**
 * OS thread ids of `pid` (main, pools, and the engines' nested threads), once they have stopped
 * changing for a second (a stopped thread can take a while to go on a loaded machine), or after 20 s.
 */
export async function settledThreads(pid: number): Promise<string[]> {
  const read = () => fs.readdirSync(`/proc/${pid}/task`).sort();
  const deadline = Date.now() + 20_000;
  let last = read();
  let stableSince = Date.now();
  while (Date.now() < deadline && Date.now() - stableSince < 1_000) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = read();
    if (now.join() !== last.join()) stableSince = Date.now();
    last = now;
  }
  return last;
}
