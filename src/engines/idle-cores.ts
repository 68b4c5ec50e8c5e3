// How many of the machine's cores are idle now: the idle share of every core's CPU time over a
// short window (os.cpus()), times the cores. Used when an OCR worker starts to decide whether a
// page may use more than one core (core/paddle-threads.ts). The load average is not used: it
// lags by a minute and counts waiting processes, not busy cores. Every core the kernel lists is
// counted, also any this process may not run on (a CPU affinity mask).

import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/** Long enough for the kernel's tick counts (100 Hz) to say something, short beside a worker's ~2 s start. */
const WINDOW_MS = 250;

function cpuTimes(): { idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

export async function idleCores(windowMs = WINDOW_MS): Promise<number> {
  const before = cpuTimes();
  await sleep(windowMs);
  const after = cpuTimes();
  const total = after.total - before.total;
  if (total <= 0) return os.availableParallelism();
  return (os.cpus().length * (after.idle - before.idle)) / total;
}
