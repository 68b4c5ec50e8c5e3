// How often a start of the WebAssembly office deadlocks, by pthread pool size: single starts (no
// retry) of the office as the service launches it (its V8 flags, profile and fonts), the pool
// sizes interleaved round by round; each start ends ready, deadlocked (WasmOffice's start watch)
// or timed out, and is stopped. For measuring on a loaded machine (`yes > /dev/null &` twice):
// `npx tsx test/bench/wasm-office-starts.ts ROUNDS SIZE…` (e.g. `8 8 16`); prints a line per
// start and a summary per size. Each size is a copy of the glue adapted to it (adaptGlue, as the
// office's host adapts the package's); the host raises a pool below PTHREAD_POOL_SIZE to it, so
// sizes below that are refused.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { bundledCjkFonts, wasmOfficeProfile } from '../../src/documents/profile.js';
import { WasmOffice } from '../../src/wasm-office/wasm-office.js';
import { officeV8Flags } from '../../src/wasm-office/wasm-office-engine.js';
import { adaptGlue, findWasmOffice, PTHREAD_POOL_SIZE, type WasmOfficeFiles } from '../../core/wasm-office-package.js';
import { settleWithin } from '../../core/deadline.js';

const TIMEOUT_MS = 240_000;

interface Outcome {
  size: number;
  result: 'ready' | 'deadlocked' | 'failed';
  ms: number;
  stage: string;
}

/** A copy of the glue whose pool is `size` workers, in `dir`. */
function glueWithPool(glue: string, size: number, dir: string): string {
  const file = path.join(dir, `soffice-pool-${size}.cjs`);
  fs.writeFileSync(file, adaptGlue(fs.readFileSync(glue, 'utf8'), glue, size));
  return file;
}

async function startOnce(size: number, glue: string, files: WasmOfficeFiles, flags: string[]): Promise<Outcome> {
  const office = new WasmOffice(
    { entry: files.entry, wasmDir: files.wasmDir, glue, fonts: bundledCjkFonts(), cjkFaces: bundledCjkFonts(), profile: wasmOfficeProfile() },
    flags,
  );
  const begun = performance.now();
  try {
    await settleWithin(office.ready, TIMEOUT_MS, () => new Error(`timed out, ${office.startProgress}`));
    return { size, result: 'ready', ms: performance.now() - begun, stage: office.startProgress };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { size, result: /deadlocked/.test(message) ? 'deadlocked' : 'failed', ms: performance.now() - begun, stage: message };
  } finally {
    await office.stop();
  }
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 8);
  const sizes = process.argv.slice(3).map(Number);
  if (sizes.length === 0 || sizes.some((s) => !Number.isInteger(s) || s < PTHREAD_POOL_SIZE))
    throw new Error(`usage: wasm-office-starts.ts ROUNDS SIZE… (each size at least ${PTHREAD_POOL_SIZE})`);
  const found = findWasmOffice();
  if (!found.found) throw new Error(found.reason);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-office-starts-'));
  const outcomes: Outcome[] = [];
  try {
    const glues = new Map(sizes.map((size) => [size, glueWithPool(found.files.glue, size, dir)]));
    const flags = await officeV8Flags();
    for (let round = 1; round <= rounds; round++) {
      for (const size of sizes) {
        const outcome = await startOnce(size, glues.get(size) as string, found.files, flags);
        outcomes.push(outcome);
        process.stdout.write(
          `round ${round} pool ${size}: ${outcome.result} in ${(outcome.ms / 1000).toFixed(1)} s (${outcome.stage}); load ${os.loadavg()[0]?.toFixed(1)}\n`,
        );
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  for (const size of sizes) {
    const mine = outcomes.filter((o) => o.size === size);
    const ready = mine.filter((o) => o.result === 'ready');
    const readyMs = ready.map((o) => o.ms).sort((a, b) => a - b);
    const median = readyMs.length ? (readyMs[Math.floor(readyMs.length / 2)] as number) / 1000 : NaN;
    process.stdout.write(
      `pool ${size}: ${ready.length} of ${mine.length} ready (median ${median.toFixed(1)} s), ` +
        `${mine.filter((o) => o.result === 'deadlocked').length} deadlocked, ${mine.filter((o) => o.result === 'failed').length} failed otherwise\n`,
    );
  }
}

await main();
