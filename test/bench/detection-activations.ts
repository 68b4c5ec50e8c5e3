// `tsx test/bench/detection-activations.ts IMAGE [LEVEL…]`: where PP-OCR detection's memory goes
// on IMAGE (a page the engine would detect at its default size). First a model of the graph:
// every tensor's size from the shapes the convolutions give, each freed after its last use, and
// the live total's peak per resolution (the tensors a banded run could bound exactly are those
// before the first GlobalAveragePool: a squeeze-excite's gate needs the whole page). Then the
// measured cost: for each onnxruntime graph optimisation LEVEL (default all, extended, basic,
// disabled), a process of its own loads the detection model alone and detects twice, printing
// its resident set after loading, its peak (getrusage maxrss) and onnxruntime's WebAssembly
// memory after each run (the memory is seen by wrapping the WebAssembly.Memory constructor
// before onnxruntime creates its one: it only grows, so its size is the run's high-water mark).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-web';
import { DETECTION_DEFAULTS, detectionInput, detectionScale, detectionSize } from '../../wasm/ocr/paddle/detection.js';
import { decodeModel } from '../../wasm/ocr/paddle/int8.js';
import { configureRuntime, MODEL_DIR, MODEL_FILES } from '../../wasm/ocr/paddle/models.js';
import { greyRaster } from '../helpers/ocr-page-set.js';

type Shape = [channels: number, height: number, width: number];
const MB = 2 ** 20;
const [image, ...levels] = process.argv.slice(2);
if (!image) throw new Error('usage: detection-activations.ts IMAGE [LEVEL…]');
const modelBytes = fs.readFileSync(path.join(MODEL_DIR, MODEL_FILES.detection));

async function detectionTensor(): Promise<{ tensor: Float32Array; width: number; height: number }> {
  const raster = await greyRaster(image as string);
  const { width, height } = detectionSize(raster.width, raster.height, detectionScale(raster.width, raster.height, DETECTION_DEFAULTS));
  return { tensor: detectionInput(raster, width, height), width, height };
}

/** Each node's output shape, from the input's; elementwise ops take their widest input's. */
function modelShapes(height: number, width: number) {
  const weights = new Map<string, number[]>();
  const shapes = new Map<string, Shape>([['x', [3, height, width]]]);
  const all = (decodeModel(modelBytes).graph?.node ?? []).map((node) => ({
    opType: node.opType ?? '',
    input: node.input ?? [],
    output: node.output ?? [],
    attribute: node.attribute ?? [],
  }));
  const nodes = all.filter((node) => {
    if (node.opType !== 'Constant') return true;
    weights.set(node.output[0] as string, (node.attribute[0]?.t?.dims ?? []).map(Number));
    return false;
  });
  const ints = (node: (typeof nodes)[number], name: string) => node.attribute.find((a) => a.name === name)?.ints?.map(Number) ?? [];
  const consumers = (name: string) => nodes.filter((node) => node.input.includes(name));
  for (const node of nodes) {
    const inputs = node.input.map((name) => shapes.get(name)).filter((shape): shape is Shape => shape !== undefined);
    const [c, h, w] = inputs[0] as Shape;
    let out: Shape;
    if (node.opType === 'Conv' || node.opType === 'ConvTranspose') {
      const filter = weights.get(node.input[1] as string) as number[];
      const [kh, kw] = ints(node, 'kernel_shape') as [number, number];
      const [sh, sw] = (ints(node, 'strides').length ? ints(node, 'strides') : [1, 1]) as [number, number];
      const [pt, pl, pb, pr] = (ints(node, 'pads').length ? ints(node, 'pads') : [0, 0, 0, 0]) as [number, number, number, number];
      out =
        node.opType === 'Conv'
          ? [filter[0] as number, Math.floor((h + pt + pb - kh) / sh) + 1, Math.floor((w + pl + pr - kw) / sw) + 1]
          : [filter[1] as number, (h - 1) * sh + kh - pt - pb, (w - 1) * sw + kw - pl - pr];
    } else if (node.opType === 'GlobalAveragePool') out = [c, 1, 1];
    else if (node.opType === 'Concat') out = [inputs.reduce((sum, shape) => sum + shape[0], 0), h, w];
    else if (node.opType === 'Resize') {
      // Upsampled to the size of what it is added to or concatenated with.
      const partner = consumers(node.output[0] as string)
        .flatMap((n) => n.input)
        .map((name) => shapes.get(name))
        .find((s) => s && s[1] > h);
      out = [c, (partner as Shape)[1], (partner as Shape)[2]];
    } else out = inputs.reduce((widest, shape) => (shape[1] * shape[2] * shape[0] > widest[1] * widest[2] * widest[0] ? shape : widest), inputs[0] as Shape);
    shapes.set(node.output[0] as string, out);
  }
  return { nodes, shapes };
}

function modelledPeaks(height: number, width: number): void {
  const { nodes, shapes } = modelShapes(height, width);
  const bytes = (name: string) => {
    const [c, h, w] = shapes.get(name) as Shape;
    return 4 * c * h * w;
  };
  const lastUse = new Map<string, number>();
  nodes.forEach((node, i) => node.input.forEach((name) => lastUse.set(name, i)));
  const firstGlobal = nodes.findIndex((node) => node.opType === 'GlobalAveragePool');
  const parts = [
    { name: 'before the first global pooling (a banded run could bound it exactly)', peak: 0, at: '' },
    { name: 'from the first global pooling on (a squeeze-excite gate needs the whole page)', peak: 0, at: '' },
  ];
  let live = 0;
  nodes.forEach((node, i) => {
    const out = node.output[0] as string;
    live += bytes(out);
    const part = parts[i < firstGlobal ? 0 : 1] as (typeof parts)[number];
    if (live > part.peak) {
      const [c, h, w] = shapes.get(out) as Shape;
      Object.assign(part, { peak: live, at: `${node.opType} → ${c} × ${h} × ${w} (1/${Math.round(height / h)} resolution)` });
    }
    for (const name of node.input) if (lastUse.get(name) === i && name !== 'x' && shapes.has(name)) live -= bytes(name);
  });
  console.log(`modelled live activations, input ${width} × ${height} (the input itself, ${(bytes('x') / MB).toFixed(0)} MB, not counted):`);
  for (const part of parts) console.log(`  ${part.name}: peak ${(part.peak / MB).toFixed(0)} MB at ${part.at}`);
}

interface Memory {
  buffer: ArrayBuffer;
}
type MemoryConstructor = new (descriptor: unknown) => Memory;

/** Every WebAssembly.Memory made from here on (onnxruntime's threaded build makes its own). */
function watchMemories(): Memory[] {
  const made: Memory[] = [];
  const webAssembly = (globalThis as unknown as { WebAssembly: { Memory: MemoryConstructor } }).WebAssembly;
  const Memory = webAssembly.Memory;
  const watched = function (descriptor: unknown) {
    const memory = new Memory(descriptor);
    made.push(memory);
    return memory;
  };
  Object.assign(webAssembly, { Memory: watched });
  return made;
}

async function measure(level: string): Promise<void> {
  const memories = watchMemories();
  const wasm = () => memories.map((memory) => `${(memory.buffer.byteLength / MB).toFixed(0)} MB`).join(' + ') || 'none';
  const { tensor, width, height } = await detectionTensor();
  configureRuntime({ threads: 1 });
  const mb = () => `${(process.memoryUsage().rss / MB).toFixed(0)} MB`;
  const peak = () => `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`;
  const session = await ort.InferenceSession.create(modelBytes, { executionProviders: ['wasm'], graphOptimizationLevel: level as 'all' });
  const loaded = `${mb()} (WebAssembly memory ${wasm()})`;
  const runs: string[] = [];
  for (let i = 0; i < 2; i++) {
    const started = performance.now();
    await session.run({ x: new ort.Tensor('float32', tensor, [1, 3, height, width]) });
    runs.push(`peak ${peak()}, WebAssembly memory ${wasm()} (${Math.round(performance.now() - started)} ms)`);
  }
  console.log(`  graph optimisation ${level}: loaded ${loaded}; after detection 1: ${runs[0]}, 2: ${runs[1]}`);
}

if (process.env.DETECTION_LEVEL) await measure(process.env.DETECTION_LEVEL);
else {
  const { width, height } = await detectionTensor();
  modelledPeaks(height, width);
  console.log('measured, the detection model alone in a process of its own:');
  for (const level of levels.length > 0 ? levels : ['all', 'extended', 'basic', 'disabled']) {
    execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), image], {
      env: { ...process.env, DETECTION_LEVEL: level },
      stdio: 'inherit',
    });
  }
}
