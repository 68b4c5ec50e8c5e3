// Once engines retire for idleness nothing runs in the main thread, so V8 never collects what the
// jobs left in its heap (answers, file buffers, parsed requests): measured after the mixed
// workload (bench:memory), the idle service with glibc's malloc settings held 241 MB, and 133 MB
// with a full collection after the retirements. V8 exposes `gc` only under --expose-gc; setting
// that flag now makes new contexts get it, without asking users to start node with a flag.

import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * After the last of a burst of retirements (they come one per instance, within milliseconds), so
 * one collection serves them all — and soon: the service is measured idle as soon as its threads
 * are gone (test/reliability/idle-memory-suite.ts), and with 2 s the collection came after that
 * (130–139 MB there against a 135 MB ceiling; 111–128 MB with 300 ms).
 */
const SETTLE_MS = 300;

let collect: (() => void) | undefined;
let timer: NodeJS.Timeout | undefined;

/** A full collection of the main thread's heap, shortly after the retirements have settled. */
export function collectGarbageSoon(): void {
  clearTimeout(timer);
  timer = setTimeout(() => {
    collect ??= exposedGc();
    collect();
  }, SETTLE_MS);
  timer.unref();
}

function exposedGc(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}
