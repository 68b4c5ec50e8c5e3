// Starting a WebAssembly office: one attempt bounded as a whole, an attempt that fails
// (deadlocked, timed out, crashed) stopped (startOnce); at most START_ATTEMPTS in a row — the
// service's supervisor tries them (src/jobs/supervisor.ts startAttempts), tests and the bench
// through startOffice.

import { performance } from 'node:perf_hooks';
import { settleWithin } from '../../core/deadline.js';
import { WasmOffice } from './wasm-office.js';
import type { HostSettings } from '../../core/wasm-office-protocol.js';

/**
 * Starts tried in a row. A deadlocked start costs ~20 s to find (WasmOffice's start watch). How
 * often a start deadlocks depends on the load: none of 20 on a quiet machine, 6 of 16 with both
 * cores kept busy, 14 of 21 at load 5–8 over 2 cores (2026-11-29,
 * test/bench/wasm-office-starts.ts) — so twelve attempts: a failed round about one in 120 at that
 * load (0.67^12), one in 60,000 at 40 %, at worst ~4 minutes before files are refused.
 */
export const START_ATTEMPTS = 12;

export interface StartOptions {
  /** Longest one start may take before it is stopped. */
  timeoutMs: number;
  /** Told of each office as it is launched (to stop it if the caller closes meanwhile). */
  launched?: (office: WasmOffice) => void;
  /** Told of each failed attempt, after its office was stopped. */
  failed?: (attempt: number, message: string) => void;
  /** True when the caller no longer wants an office (the service is closing): no further attempt. */
  abandoned?: () => boolean;
}

export interface StartedOffice {
  office: WasmOffice;
  /** From the last attempt's launch to its `ready`. */
  startMs: number;
}

/** An office ready to convert, or undefined when every attempt failed or the caller abandoned. */
export async function startOffice(settings: HostSettings, v8Flags: readonly string[], options: StartOptions): Promise<StartedOffice | undefined> {
  for (let attempt = 1; attempt <= START_ATTEMPTS && !options.abandoned?.(); attempt++) {
    const begun = performance.now();
    try {
      const office = await startOnce(settings, v8Flags, options.timeoutMs, options.launched);
      return { office, startMs: performance.now() - begun };
    } catch (err) {
      options.failed?.(attempt, err instanceof Error ? err.message : String(err));
    }
  }
  return undefined;
}

/** One attempt: an office ready to convert, or (stopped first) why it is not. The service's supervisor tries again. */
export async function startOnce(
  settings: HostSettings,
  v8Flags: readonly string[],
  timeoutMs: number,
  launched?: (office: WasmOffice) => void,
): Promise<WasmOffice> {
  const office = new WasmOffice(settings, v8Flags);
  launched?.(office);
  try {
    await settleWithin(
      office.ready,
      timeoutMs,
      () => new Error(`the office did not finish starting within ${timeoutMs / 1000} s, ${office.startProgress}, and was stopped`),
    );
    return office;
  } catch (err) {
    await office.stop();
    throw err;
  }
}
