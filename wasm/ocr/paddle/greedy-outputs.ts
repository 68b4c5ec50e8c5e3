// Recognition's output reduced inside the graph (issue 46). PP-OCRv4's recognition model ends in
// a Softmax over 6,625 classes at every time step: a batch of 8 lines squeezed to 1,127 px is
// 8 × 141 × 6,625 float32, ~30 MB, which onnxruntime-web copies out of its heap into
// JavaScript at every call. Greedy CTC (recognition.ts `ctcDecode`) needs of each time step only
// its best class, that class's probability and the space class's probability, so the model is
// given three small outputs in place of the Softmax's: ArgMax and ReduceMax over the classes
// and a Gather of the space class — the same values to the bit (ArgMax keeps the first of equal
// maxima, as the loop it replaces did), 1/2,200 of the bytes. Applied at load to the int8 model
// and the float Latin one, with int8.ts's ONNX schema.

import { decodeModel, encodeModel, int64s } from './int8.js';

/** The rewritten model's outputs, in order, each [batch, time steps] (the space's [batch, steps, 1]). */
export const GREEDY_OUTPUTS = { best: 'greedy_best_class', probability: 'greedy_best_probability', space: 'greedy_space_probability' } as const;

const FLOAT = 1;
const INT64 = 7;
const ATTRIBUTE_INT = 2;
const ATTRIBUTE_INTS = 7;

/** The recognition model `bytes` with its [batch, steps, classes] output replaced by GREEDY_OUTPUTS. */
export function withGreedyOutputs(bytes: Uint8Array, spaceClass: number): Uint8Array {
  const model = decodeModel(bytes);
  const graph = model.graph;
  const softmax = graph?.output?.length === 1 ? graph.output[0]?.name : undefined;
  if (!graph || !softmax) throw new Error('recognition model: expected one output');
  const classesAxis = 2;
  const spaceIndex = 'greedy_space_class';
  graph.node = [
    ...(graph.node ?? []),
    {
      opType: 'ArgMax',
      name: 'greedy_argmax',
      input: [softmax],
      output: [GREEDY_OUTPUTS.best],
      attribute: [
        { name: 'axis', type: ATTRIBUTE_INT, i: classesAxis },
        { name: 'keepdims', type: ATTRIBUTE_INT, i: 0 },
      ],
    },
    {
      opType: 'ReduceMax',
      name: 'greedy_reducemax',
      input: [softmax],
      output: [GREEDY_OUTPUTS.probability],
      attribute: [
        { name: 'axes', type: ATTRIBUTE_INTS, ints: [classesAxis] },
        { name: 'keepdims', type: ATTRIBUTE_INT, i: 0 },
      ],
    },
    int64s(spaceIndex, [spaceClass]),
    {
      opType: 'Gather',
      name: 'greedy_space',
      input: [softmax, spaceIndex],
      output: [GREEDY_OUTPUTS.space],
      attribute: [{ name: 'axis', type: ATTRIBUTE_INT, i: classesAxis }],
    },
  ];
  const output = (name: string, elemType: number) => ({ name, type: { tensorType: { elemType } } });
  graph.output = [output(GREEDY_OUTPUTS.best, INT64), output(GREEDY_OUTPUTS.probability, FLOAT), output(GREEDY_OUTPUTS.space, FLOAT)];
  return encodeModel(model);
}
