// The memory ceiling of an office process (--office-memory-mb). Two parts: the kernel's limit on
// each process's address space (RLIMIT_AS, set by util-linux `prlimit` before the office starts),
// which no document can grow past however fast it allocates; and a watch over the office's
// process group during a conversion, which stops the office as it nears the ceiling so that the
// breach is reported as TOO_LARGE rather than as whatever LibreOffice does when malloc fails.

import fs from 'node:fs/promises';
import { statFields } from '../../core/process-stat.js';
import { findProgram } from '../sandbox/sandbox.js';

export interface MemoryCeiling {
  /** Address-space limit of each office process, in bytes. */
  bytes: number;
  /** util-linux prlimit, when installed; without it only the watch applies. */
  prlimit: string | undefined;
}

/** The ceiling for `--office-memory-mb`; prlimit is looked up on Linux only (RLIMIT_AS is Linux's here). */
export function officeMemoryCeiling(megabytes: number): MemoryCeiling {
  return { bytes: megabytes * 1024 * 1024, prlimit: process.platform === 'linux' ? findProgram('prlimit') : undefined };
}

/** The watch stops an office whose largest process has reserved this share of the ceiling. */
const WATCH_SHARE = 0.9;
/** A failed conversion whose office had reserved this share of the ceiling ran out of memory. */
const EXHAUSTED_SHARE = 0.75;

/** `command args…` run under the address-space limit (unchanged where prlimit is missing). */
export function withAddressSpaceLimit(ceiling: MemoryCeiling | undefined, command: string, args: readonly string[]): { command: string; args: string[] } {
  if (!ceiling?.prlimit) return { command, args: [...args] };
  return { command: ceiling.prlimit, args: [`--as=${ceiling.bytes}`, '--', command, ...args] };
}

/** PIDs of the processes in group `pgid`; undefined where /proc does not exist (not Linux). */
async function groupMembers(pgid: number): Promise<string[] | undefined> {
  const entries = await fs.readdir('/proc').catch(() => undefined);
  if (!entries) return undefined;
  const members = await Promise.all(
    entries.filter((name) => /^\d+$/.test(name)).map(async (pid) => (Number((await statFields(pid))[2]) === pgid ? pid : undefined)),
  );
  return members.filter((pid) => pid !== undefined);
}

/** The largest virtual size (bytes, what RLIMIT_AS limits: vsize is the 21st field after the name) among `pids`. */
async function largestVirtualSize(pids: readonly string[]): Promise<number> {
  const sizes = await Promise.all(pids.map(async (pid) => Number((await statFields(pid))[20]) || 0));
  return Math.max(0, ...sizes);
}

/**
 * The largest resident size (bytes, /proc/<pid>/status VmRSS) among `pids`: the measure for the
 * WebAssembly office, whose address space is mostly reservations (a WebAssembly memory reserves
 * its whole range up front) and says nothing of what a document costs.
 */
export async function largestResidentSize(pids: readonly string[]): Promise<number> {
  const sizes = await Promise.all(
    pids.map(async (pid) => {
      const status = await fs.readFile(`/proc/${pid}/status`, 'latin1').catch(() => '');
      return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
    }),
  );
  return Math.max(0, ...sizes);
}

/** Samples the office group's size every `intervalMs`; calls `onBreach` once it nears the ceiling. */
export class MemoryWatch {
  peak = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pgid: number,
    private readonly ceilingBytes: number,
    private readonly onBreach: () => void,
    private readonly intervalMs = 250,
    /** How a process's size is measured: its address space (what RLIMIT_AS limits) by default. */
    private readonly measure: (pids: readonly string[]) => Promise<number> = largestVirtualSize,
  ) {}

  start(): this {
    let members: string[] | undefined = [];
    let samples = 0;
    const sample = async () => {
      // The whole process table is read once a second; in between only the group's known members.
      if (samples++ % Math.round(1000 / this.intervalMs) === 0) members = await groupMembers(this.pgid);
      if (members === undefined || this.timer === undefined) return;
      const size = await this.measure(members);
      this.peak = Math.max(this.peak, size);
      if (size >= this.ceilingBytes * WATCH_SHARE) this.onBreach();
      else this.timer = setTimeout(() => void sample(), this.intervalMs);
    };
    this.timer = setTimeout(() => void sample(), this.intervalMs);
    return this;
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Whether a conversion that failed while watched most likely failed for memory. */
  exhausted(): boolean {
    return this.peak >= this.ceilingBytes * EXHAUSTED_SHARE;
  }
}
