// The log lines of an engine's life (issue 42): each start and each idle retirement says which
// engine, and how much memory it holds, so that memory coming and going, and the next job's start
// cost, can be read from the log. One line each, to stderr (core/log.ts).

import { logEvent } from '../../core/log.js';
import { treeResidentBytes } from '../../core/process-stat.js';

/** Off for a one-shot command: its stderr holds only what it tells its user (src/cli). */
let lifecycleLogged = true;

/** A one-shot command's engines start and stop with it: their lines would only be noise there. */
export function quietEngineLifecycle(): void {
  lifecycleLogged = false;
}

/** How an engine's memory is measured: its own processes' (an office), or the service's (worker threads share it). */
export type EngineMemory = { pid: number | undefined } | 'service';

function memoryText(memory: EngineMemory): string {
  if (memory === 'service') return `memory ${megabytes(process.memoryUsage.rss())} MB (the service process, its worker threads included)`;
  if (memory.pid === undefined) return 'memory unknown (no process id)';
  return `memory ${megabytes(treeResidentBytes(memory.pid))} MB (pid ${memory.pid} and its children)`;
}

const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));

/** `docwasm <engine>: started in 1.8 s, memory 712 MB (…)`. */
export function logEngineStarted(engine: string, startMs: number, memory: EngineMemory): void {
  if (lifecycleLogged) logEvent(`docwasm ${engine}: started in ${(startMs / 1000).toFixed(1)} s, ${memoryText(memory)}`);
}

/** `docwasm <engine>: retired after 300 s idle, holding memory 712 MB (…); …`: measured just before it stops. */
export function logEngineRetired(engine: string, idleMs: number, memory: EngineMemory): void {
  if (lifecycleLogged)
    logEvent(`docwasm ${engine}: retired after ${Math.round(idleMs / 1000)} s idle, holding ${memoryText(memory)}; the next job starts it again`);
}
