// What Linux's /proc says of a process: the fields of /proc/<pid>/stat, read by the office's
// memory watch (documents/office-memory.ts), the WebAssembly office's start-stall watch
// (documents/wasm-office.ts, with its main thread's waits from /proc/<pid>/task/<pid>/status),
// the watch folder's lock (watch/lock.ts: is a PID still its owner?) and the engines' start and
// retirement lines (jobs/engine-events.ts: the memory of an office's processes).

import fsSync from 'node:fs';
import fs from 'node:fs/promises';

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses); [] where there is none. */
export async function statFields(pid: string): Promise<string[]> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'latin1').catch(() => '');
  if (stat === '') return [];
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU time the process has used, user + system, in clock ticks (utime and stime: fields 14 and 15); undefined where /proc has no such process. */
export async function cpuTicks(pid: number): Promise<number | undefined> {
  const fields = await statFields(String(pid));
  if (fields.length < 13) return undefined;
  return Number(fields[11]) + Number(fields[12]);
}

/** Times the process's main thread gave up the CPU of its own accord (waits, sleeps) since it started; undefined where /proc has no such process. */
export async function mainThreadWaits(pid: number): Promise<number | undefined> {
  const status = await fs.readFile(`/proc/${pid}/task/${pid}/status`, 'latin1').catch(() => '');
  const waits = /^voluntary_ctxt_switches:\s+(\d+)$/m.exec(status)?.[1];
  return waits === undefined ? undefined : Number(waits);
}

/** When the process started, in clock ticks after boot (field 22): with the PID, it names one process across PID reuse; null where /proc has no such process. */
export async function startTimeOf(pid: number): Promise<string | null> {
  return (await statFields(String(pid)))[19] ?? null;
}

/**
 * Resident memory (bytes, VmRSS) of process `pid` and every process below it; 0 where /proc has
 * none. Synchronous: it is taken just before an idle engine is stopped, in the same tick.
 */
export function treeResidentBytes(pid: number): number {
  const children = new Map<number, number[]>();
  let entries: string[] = [];
  try {
    entries = fsSync.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const parent = Number(readProc(`/proc/${entry}/stat`).split(') ')[1]?.split(' ')[1]);
    if (Number.isFinite(parent)) children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  let bytes = 0;
  for (const queue = [pid]; queue.length > 0;) {
    const next = queue.pop() as number;
    bytes += Number(/^VmRSS:\s+(\d+) kB/m.exec(readProc(`/proc/${next}/status`))?.[1] ?? 0) * 1024;
    queue.push(...(children.get(next) ?? []));
  }
  return bytes;
}

/** A /proc file's text, or '' for a process gone meanwhile. */
function readProc(file: string): string {
  try {
    return fsSync.readFileSync(file, 'latin1');
  } catch {
    return '';
  }
}
