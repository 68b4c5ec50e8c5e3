// Dynamic int8 quantisation of an ONNX model in pure JS, the rewrite onnxruntime's
// `quantize_dynamic` does (Python; not available here): each chosen Conv becomes
//   DynamicQuantizeLinear(x) → ConvInteger(x_q, W_u8, x_zp, W_zp) → Cast → Mul(x_scale × W_scale) → Add(bias)
// and each MatMul by a constant the same with MatMulInteger and int8 weights. Weights are
// quantised per tensor as quantize_dynamic's defaults do (uint8 asymmetric for convolutions,
// int8 symmetric for MatMuls) or per output channel (symmetric around one zero point, since
// onnxruntime's ConvInteger takes only a scalar one; the channel scales are applied after it).
// The ONNX schema is the protobufjs code onnxruntime-web ships (it decodes and encodes).
//
// PP-OCRv4's recognition model runs with its eight widest 1×1 convolutions (≥ 240 channels in
// and out) quantised per channel (RECOGNITION_INT8), measured in docs/ocr-measurements.md ("int8
// recognition: measured"): per tensor it reads 5–15 % worse; quantising the narrower ones too
// adds spurious characters to short (vertical) lines; the MatMuls add little speed.

import { createRequire } from 'node:module';
import path from 'node:path';
import type { onnx as OnnxSchema } from '../../../node_modules/onnxruntime-web/lib/onnxjs/ort-schema/protobuf/onnx.js';

const require = createRequire(import.meta.url);
const schemaFile = path.join(path.dirname(require.resolve('onnxruntime-web')), '..', 'lib', 'onnxjs', 'ort-schema', 'protobuf', 'onnx.js');
const { onnx } = require(schemaFile) as { onnx: typeof OnnxSchema };

type Node = OnnxSchema.INodeProto;
type Tensor = OnnxSchema.ITensorProto;

const FLOAT = 1;
const UINT8 = 2;
const INT8 = 3;
const INT64 = 7;
const ATTRIBUTE_TENSOR = 4;
const ATTRIBUTE_INT = 2;

export interface QuantizeOptions {
  /** Which convolutions: only 1×1 ones with group 1 (`pointwise`), or every group-1 convolution (`dense`). */
  convs: 'none' | 'pointwise' | 'dense';
  /** MatMuls whose second input is a constant. */
  matmuls: boolean;
  /** One weight scale per output channel (convolutions) or column (MatMuls) instead of one per tensor. */
  perChannel: boolean;
  /** Only convolutions with at least this many input and output channels (default: all). */
  minChannels?: number;
}

/** What the OCR engine runs: the shipped recognition model with these quantised (measured choice). */
export const RECOGNITION_INT8: QuantizeOptions = { convs: 'pointwise', matmuls: false, perChannel: true, minChannels: 240 };

/**
 * The int8 detection model measured in docs/ocr-engines.md ("Second round"; not run by the OCR
 * engine, which detects with the float model): the group-1
 * convolutions with ≥ 24 channels in and out (34 of 62: the 1×1 ones and the neck's 3×3 ones)
 * quantised per channel; the depthwise ones, the narrow ones (the first 3-channel convolution,
 * the squeeze-excite's 6–18-channel ones) and the two ConvTransposes stay float. All 48 group-1
 * ones: Kai 200 dpi 0.48 → 0.84 % CER for 2 points more speed.
 */
export const DETECTION_INT8: QuantizeOptions = { convs: 'dense', matmuls: false, perChannel: true, minChannels: 24 };

export interface QuantizeReport {
  convs: number;
  matmuls: number;
  bytes: number;
}

/** The ONNX schema's decoded model (what the benches that read a model's graph use). */
export function decodeModel(bytes: Uint8Array): OnnxSchema.ModelProto {
  return onnx.ModelProto.decode(bytes);
}

/** A decoded model's bytes again. */
export function encodeModel(model: OnnxSchema.IModelProto): Uint8Array {
  return onnx.ModelProto.encode(model).finish();
}

/** The quantised model's bytes and what was quantised. */
export function quantizeModel(bytes: Uint8Array, options: QuantizeOptions): { bytes: Uint8Array; report: QuantizeReport } {
  const model = decodeModel(bytes);
  const graph = model.graph as OnnxSchema.IGraphProto;
  const constants = new Map<string, Tensor>();
  for (const node of graph.node ?? []) if (node.opType === 'Constant') constants.set((node.output ?? [])[0] as string, constantValue(node));
  const report = { convs: 0, matmuls: 0, bytes: 0 };
  const rewritten: Node[] = [];
  for (const node of graph.node ?? []) {
    const weight = constants.get((node.input ?? [])[1] ?? '');
    if (node.opType === 'Conv' && weight && chosenConv(node, weight, options)) {
      rewritten.push(...quantizedConv(node, weight, constants.get((node.input ?? [])[2] ?? ''), options.perChannel));
      report.convs++;
    } else if (node.opType === 'MatMul' && weight && options.matmuls) {
      rewritten.push(...quantizedMatMul(node, weight, options.perChannel));
      report.matmuls++;
    } else rewritten.push(node);
  }
  graph.node = withoutUnusedConstants(rewritten.flatMap(toOpset11), graph.output?.map((o) => o.name as string) ?? []);
  setOpset11(model);
  const out = encodeModel(model);
  report.bytes = out.length;
  return { bytes: out, report };
}

/** DynamicQuantizeLinear is opset 11; the shipped model is opset 9. */
function setOpset11(model: OnnxSchema.IModelProto): void {
  const standard = model.opsetImport?.find((o) => (o.domain ?? '') === '');
  if (!standard) throw new Error('model imports no standard opset');
  if (Number(standard.version) > 11) throw new Error(`opset ${Number(standard.version)} not handled`);
  standard.version = 11;
}

/**
 * The two ops of this model whose form changed between opsets 9 and 11: Clip's min/max and
 * Slice's starts/ends/axes moved from attributes to inputs (opsets 11 and 10).
 */
function toOpset11(node: Node): Node[] {
  const base = node.name as string;
  if (node.opType === 'Clip' && (node.input ?? []).length === 1) {
    const min = attribute(node, 'min')?.f ?? -3.4028234663852886e38;
    const max = attribute(node, 'max')?.f ?? 3.4028234663852886e38;
    const bounds = [scalar(`${base}_min`, min), scalar(`${base}_max`, max)];
    return [...bounds, { ...node, input: [(node.input ?? [])[0] as string, `${base}_min`, `${base}_max`], attribute: [] }];
  }
  if (node.opType === 'Slice' && (node.input ?? []).length === 1) {
    const names = ['starts', 'ends', 'axes'] as const;
    const inputs = names.map((name) => int64s(`${base}_${name}`, (attribute(node, name)?.ints ?? []).map(Number)));
    return [...inputs, { ...node, input: [(node.input ?? [])[0] as string, ...names.map((name) => `${base}_${name}`)], attribute: [] }];
  }
  return [node];
}

/** A Constant node of int64 `values` (shape [values.length]). */
export function int64s(name: string, values: number[]): Node {
  return constant(name, INT64, [values.length], new Uint8Array(BigInt64Array.from(values.map(BigInt)).buffer));
}

function attribute(node: Node, name: string): OnnxSchema.IAttributeProto | undefined {
  return node.attribute?.find((a) => a.name === name);
}

function chosenConv(node: Node, weight: Tensor, options: QuantizeOptions): boolean {
  if (options.convs === 'none' || Number(attribute(node, 'group')?.i ?? 1) !== 1) return false;
  const kernel = (attribute(node, 'kernel_shape')?.ints ?? []).map(Number);
  const [outputs = 0, inputs = 0] = (weight.dims ?? []).map(Number);
  if (Math.min(outputs, inputs) < (options.minChannels ?? 0)) return false;
  return options.convs === 'dense' || kernel.every((k) => k === 1);
}

function constantValue(node: Node): Tensor {
  const value = attribute(node, 'value')?.t;
  if (!value) throw new Error(`Constant ${node.name} has no tensor value`);
  return value;
}

function floats(tensor: Tensor): Float32Array {
  if (tensor.dataType !== FLOAT) throw new Error('weights must be float32');
  if (tensor.rawData && tensor.rawData.length > 0) {
    const raw = tensor.rawData;
    return new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
  }
  return Float32Array.from(tensor.floatData ?? []);
}

function constant(name: string, dataType: number, dims: number[], raw: Uint8Array): Node {
  const t = { name, dataType, dims, rawData: raw };
  return { opType: 'Constant', name: `${name}_node`, output: [name], attribute: [{ name: 'value', type: ATTRIBUTE_TENSOR, t }] };
}

function scalar(name: string, value: number): Node {
  return floatConstant(name, Float32Array.of(value), []);
}

/**
 * Per tensor: uint8 asymmetric over [min(0, w), max(0, w)] (quantize_dynamic's QUInt8 weights).
 * Per channel: symmetric, one scale per output channel and the zero point 128 for all (the
 * integer op takes one zero point; the scales are applied after it, so they may differ).
 */
function quantizeUint8(w: Float32Array, channels: number, perChannel: boolean): { q: Uint8Array; scales: Float32Array; zeroPoint: number } {
  if (perChannel) {
    const scales = symmetricScales(w, channels, (c, i) => c * (w.length / channels) + i, w.length / channels);
    const size = w.length / channels;
    const q = new Uint8Array(w.length);
    for (let i = 0; i < w.length; i++) q[i] = 128 + clampRound((w[i] as number) / (scales[Math.floor(i / size)] as number), 127);
    return { q, scales, zeroPoint: 128 };
  }
  let lo = 0;
  let hi = 0;
  for (const v of w) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  const scale = hi > lo ? (hi - lo) / 255 : 1;
  const zeroPoint = Math.round(-lo / scale);
  const q = new Uint8Array(w.length);
  for (let i = 0; i < w.length; i++) q[i] = Math.max(0, Math.min(255, Math.round((w[i] as number) / scale) + zeroPoint));
  return { q, scales: Float32Array.of(scale), zeroPoint };
}

/** int8 symmetric, zero point 0 (quantize_dynamic's QInt8 weights): per tensor, or per column of a K×N weight. */
function quantizeInt8(w: Float32Array, columns: number, perChannel: boolean): { q: Int8Array; scales: Float32Array } {
  const rows = w.length / columns;
  const scales = perChannel ? symmetricScales(w, columns, (n, k) => k * columns + n, rows) : symmetricScales(w, 1, (_, i) => i, w.length);
  const q = new Int8Array(w.length);
  for (let i = 0; i < w.length; i++) q[i] = clampRound((w[i] as number) / (scales[perChannel ? i % columns : 0] as number), 127);
  return { q, scales };
}

/** max |w| / 127 over each of `groups` groups of `size` weights, the j-th of group g at index(g, j). */
function symmetricScales(w: Float32Array, groups: number, index: (group: number, j: number) => number, size: number): Float32Array {
  const scales = new Float32Array(groups);
  for (let g = 0; g < groups; g++) {
    let max = 0;
    for (let j = 0; j < size; j++) max = Math.max(max, Math.abs(w[index(g, j)] as number));
    scales[g] = max > 0 ? max / 127 : 1;
  }
  return scales;
}

function clampRound(v: number, limit: number): number {
  return Math.max(-limit, Math.min(limit, Math.round(v)));
}

/** DynamicQuantizeLinear of the input, then the integer op, Cast, and the rescale by x_scale × w_scale. */
function integerOp(
  node: Node,
  op: 'ConvInteger' | 'MatMulInteger',
  weight: Node,
  weightZeroPoint: Node,
  weightScale: Node,
  attributes: OnnxSchema.IAttributeProto[],
  output: string,
): Node[] {
  const base = node.name as string;
  const input = (node.input ?? [])[0] as string;
  const [xq, xScale, xZero, y32, yFloat, scale] = ['x_q', 'x_scale', 'x_zero', 'int32', 'float', 'scale'].map((s) => `${base}_${s}`) as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  return [
    weight,
    weightZeroPoint,
    weightScale,
    { opType: 'DynamicQuantizeLinear', name: `${base}_quantize`, input: [input], output: [xq, xScale, xZero] },
    {
      opType: op,
      name: `${base}_integer`,
      input: [xq, (weight.output ?? [])[0] as string, xZero, (weightZeroPoint.output ?? [])[0] as string],
      output: [y32],
      attribute: attributes,
    },
    { opType: 'Cast', name: `${base}_cast`, input: [y32], output: [yFloat], attribute: [{ name: 'to', type: ATTRIBUTE_INT, i: FLOAT }] },
    { opType: 'Mul', name: `${base}_scale`, input: [xScale, (weightScale.output ?? [])[0] as string], output: [scale] },
    { opType: 'Mul', name: `${base}_rescale`, input: [yFloat, scale], output: [output] },
  ];
}

function floatConstant(name: string, values: Float32Array, dims: number[]): Node {
  return constant(name, FLOAT, dims, new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
}

function quantizedConv(node: Node, weight: Tensor, bias: Tensor | undefined, perChannel: boolean): Node[] {
  const base = node.name as string;
  const dims = (weight.dims ?? []).map(Number);
  const channels = dims[0] as number;
  const { q, scales, zeroPoint } = quantizeUint8(floats(weight), channels, perChannel);
  const output = (node.output ?? [])[0] as string;
  const attributes = (node.attribute ?? []).filter((a) => a.name !== 'auto_pad' || a.s?.length);
  const wq = constant(`${base}_w_q`, UINT8, dims, q);
  const wz = constant(`${base}_w_zero`, UINT8, [], Uint8Array.of(zeroPoint));
  // Per output channel, shaped [C, 1, 1], scales and bias broadcast over N×C×H×W.
  const ws = floatConstant(`${base}_w_scale`, scales, perChannel ? [channels, 1, 1] : []);
  if (!bias) return integerOp(node, 'ConvInteger', wq, wz, ws, attributes, output);
  const unbiased = `${base}_unbiased`;
  const biasValues = floats(bias);
  const biasNode = floatConstant(`${base}_bias`, biasValues, [biasValues.length, 1, 1]);
  return [
    ...integerOp(node, 'ConvInteger', wq, wz, ws, attributes, unbiased),
    biasNode,
    { opType: 'Add', name: `${base}_bias_add`, input: [unbiased, `${base}_bias`], output: [output] },
  ];
}

function quantizedMatMul(node: Node, weight: Tensor, perChannel: boolean): Node[] {
  const base = node.name as string;
  const dims = (weight.dims ?? []).map(Number);
  if (dims.length !== 2) throw new Error(`MatMul ${base}: weight of rank ${dims.length}`);
  const columns = dims[1] as number;
  const { q, scales } = quantizeInt8(floats(weight), columns, perChannel);
  const wq = constant(`${base}_w_q`, INT8, dims, new Uint8Array(q.buffer));
  const wz = constant(`${base}_w_zero`, INT8, [], Uint8Array.of(0));
  const ws = floatConstant(`${base}_w_scale`, scales, perChannel ? [columns] : []);
  return integerOp(node, 'MatMulInteger', wq, wz, ws, [], (node.output ?? [])[0] as string);
}

/** Drops Constant nodes no other node (or graph output) reads: the float weights replaced. */
function withoutUnusedConstants(nodes: Node[], graphOutputs: string[]): Node[] {
  const used = new Set<string>(graphOutputs);
  for (const node of nodes) for (const input of node.input ?? []) used.add(input);
  return nodes.filter((node) => node.opType !== 'Constant' || used.has((node.output ?? [])[0] as string));
}
