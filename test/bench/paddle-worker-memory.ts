// `npm run build && tsx test/bench/paddle-worker-memory.ts IMAGE [CYCLES] [load|detect]`: what a
// PP-OCR worker thread leaves in the process when it ends, as the OCR pool's idle retirement ends
// it. CYCLES times (default 3) a worker thread loads the models from dist/ (and, with `detect`,
// the default, detects IMAGE's text) and ends; prints the process's resident memory at rest,
// while each worker lives and 2 s after it ended, each split by kind of mapping
// (/proc/self/smaps): glibc's malloc heaps (the main one, `[heap]`; the other threads', 64 MB
// aligned), other anonymous memory (WebAssembly memory among it), code, files. Run it under
// GLIBC_TUNABLES=… or with V8 flags (`node --liftoff-only --import tsx …`) to compare.

import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';

const [image, cycleArg = '3', mode = 'detect'] = process.argv.slice(2);
if (!image) throw new Error('usage: paddle-worker-memory.ts IMAGE [CYCLES] [load|detect]');
const dist = (file: string) => new URL(`../../dist/wasm/ocr/paddle/${file}`, import.meta.url).href;

/** Each mapping's kind; glibc gives each thread's arena heaps of at most 64 MB, 64 MB aligned. */
function kindOf(start: number, size: number, perms: string, name: string): string {
  if (name === '[heap]') return 'main malloc heap';
  if (name !== '') return name.startsWith('/') ? 'files' : name;
  if (perms.includes('x')) return 'code';
  return start % 2 ** 26 === 0 && size <= 2 ** 26 ? 'thread malloc heaps' : 'other anonymous';
}

function memory(): string {
  const mb: Record<string, number> = {};
  let kind = '';
  for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const mapping = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      const [start, end] = [parseInt(mapping[1] as string, 16), parseInt(mapping[2] as string, 16)];
      kind = kindOf(start, end - start, mapping[3] as string, (mapping[4] as string).trim());
    } else if (line.startsWith('Rss:')) mb[kind] = (mb[kind] ?? 0) + Number(line.split(/\s+/)[1]) / 1024;
  }
  const total = Object.values(mb).reduce((sum, v) => sum + v, 0);
  const parts = Object.entries(mb)
    .filter(([, v]) => v >= 1)
    .map(([k, v]) => `${k} ${Math.round(v)}`);
  return `${Math.round(total)} MB (${parts.join(', ')})`;
}

const workerCode = `
  const { parentPort, workerData } = require('node:worker_threads');
  (async () => {
    const { loadModels } = await import(workerData.models);
    const models = await loadModels({ threads: 1 });
    if (workerData.mode === 'detect') {
      const { detectText } = await import(workerData.detection);
      const { width, height, data } = workerData.raster;
      await detectText(models.detection, { width, height, channels: 1, data });
    }
    parentPort.postMessage('done');
  })();
`;

const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
const raster = { width: info.width, height: info.height, data };
process.stdout.write(`at rest: ${memory()}\n`);
for (let cycle = 1; cycle <= Number(cycleArg); cycle++) {
  const worker = new Worker(workerCode, { eval: true, workerData: { models: dist('models.js'), detection: dist('detection.js'), mode, raster } });
  await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
  const living = memory();
  await worker.terminate();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  process.stdout.write(`worker ${cycle}: while it lives ${living}; after it ended ${memory()}\n`);
}
