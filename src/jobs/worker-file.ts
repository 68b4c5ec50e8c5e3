// Where each engine's worker module lives: dist/wasm/<engine>/worker.js, beside dist/src.

export function workerFile(engine: string): URL {
  return new URL(`../../wasm/${engine}/worker.js`, import.meta.url);
}
