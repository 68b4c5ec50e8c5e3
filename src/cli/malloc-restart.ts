// The service on Linux with glibc runs with glibc's malloc told to give memory back, however it
// was started (`npm start`, `npx docwasm`, `node dist/src/cli/main.js serve`): without it, what
// the engines' worker threads freed stays in glibc's heaps once they retire. So do the other
// long-running doors that run the engines in-process, `mcp` and `watch` (not `worker`, whose
// tests kill it outright as a crash: a launcher between would make that a graceful stop). One-shot commands
// that can read with the OCR engine start again the same way: there the freed blocks are V8's
// compiler zones for onnxruntime's module, held while PP-OCR's activations grow (ONE_SHOTS below). glibc
// reads GLIBC_TUNABLES only when a process starts, so the process must start again: on Node ≥
// 22.15 `process.execve` replaces this one; on older Node a child runs the service and this
// process only passes signals on and exits as it does (a long-running child stops as on SIGTERM if
// this process is killed outright: endWithLauncher). stdin and stdout are the child's own (stdio
// inherited: `mcp`'s protocol passes through untouched). A GLIBC_TUNABLES already set is kept, an empty one
// included (glibc's defaults, asked for).
//
// This module imports nothing of docwasm's: the process that stays behind on older Node holds
// only Node itself (41 MB resident, against 67 MB with the CLI's modules loaded).

import { spawn } from 'node:child_process';

/**
 * Blocks from 32 KB up are mapped on their own and unmapped when freed, and there are at most two
 * heaps. What stayed behind after retirement was holes in glibc's heaps ([heap] and the 64 MB
 * arenas in /proc/<pid>/smaps: 196 of 262 MB with a 128 KB threshold; the V8 heap and
 * WebAssembly memories were gone); blocks of 32–128 KB freed by the engines' threads (likely
 * V8's compiler zones, whose segments are of that size) were most of it. Measured after the mixed
 * workload (bench:memory, idle): glibc's defaults 350–500 MB, a 128 KB threshold 230–317 MB, 32
 * KB 136 and 139 MB; one arena with 128 KB 248 MB. Its cost: an OCR page 4 % more CPU (16.3 s
 * against 15.6 s; the time in the kernel 0.8 → 1.5 s).
 */
export const MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=32768:glibc.malloc.arena_max=2';

/**
 * The one-shot commands whose operation can read with the OCR engine (test/packaging/launcher-malloc.test.ts
 * checks the list against the operations), as their leading words. Measured with /usr/bin/time
 * (issue 46, 2026-12-05, two runs each): `docwasm ocr` of the dense A4 Chinese page peaks at 852
 * → 698 MB (20.8 → 21.4 s of CPU), of the 2556 × 954 block at 485–496 → 401–423 MB (5.3–5.5 →
 * 6.3–6.4 s: freed blocks go back to the kernel and are mapped again); a 128 KB threshold gave 772
 * and 424 MB, two arenas alone 818 and 480 MB. A docx `convert` runs its office in a process of its
 * own and is unmoved (79–82 MB either way).
 */
const ONE_SHOTS = ['ocr', 'read', 'convert', 'pipeline', 'pdf redact'];

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Whether the command line `docwasm ARGS…` is a one-shot command started again with the settings. */
export function oneShotWantsMallocSettings(args: readonly string[]): boolean {
  return ONE_SHOTS.some((command) => command.split(' ').every((word, i) => args[i] === word));
}

/** True when this process handed the command to one started again with the settings (and must not run it itself). */
export function restartedWithMallocSettings(wanted: boolean): boolean {
  if (!wanted || !wantsMallocSettings()) return false;
  const args = [...process.execArgv, ...process.argv.slice(1)];
  const env = { ...process.env, GLIBC_TUNABLES: MALLOC_TUNABLES };
  const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;
  if (typeof execve === 'function') execve(process.execPath, [process.execPath, ...args], env);
  const child = spawn(process.execPath, args, { env: { ...env, DOCWASM_LAUNCHER_PID: String(process.pid) }, stdio: 'inherit' });
  for (const signal of SIGNALS) process.on(signal, () => child.kill(signal));
  child.once('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    // Ends as the service ended: by the same signal.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
  return true;
}

/**
 * In a long-running door started by a launcher (older Node): once the launcher is gone — killed
 * outright, so it passed nothing on — this process gets the SIGTERM the launcher would have passed
 * on, and the door stops as it does on SIGTERM (an MCP client still holding stdin open would
 * otherwise keep it running).
 */
export function endWithLauncher(): void {
  const launcher = Number(process.env.DOCWASM_LAUNCHER_PID);
  if (!launcher) return;
  const timer = setInterval(() => {
    if (process.ppid === launcher) return;
    clearInterval(timer);
    process.stderr.write('docwasm: its launcher ended; stopping\n');
    process.kill(process.pid, 'SIGTERM');
  }, 1000).unref();
}

function wantsMallocSettings(): boolean {
  if (process.argv.slice(2).some((arg) => ['-h', '--help', '-v', '--version'].includes(arg))) return false;
  if (process.platform !== 'linux' || process.env.GLIBC_TUNABLES !== undefined) return false;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return Boolean(report?.header?.glibcVersionRuntime);
}
