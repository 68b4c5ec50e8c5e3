// Recognition's output is reduced inside the graph (issue 46): the sessions give greedy CTC's
// best class, its probability and the space class's probability per time step instead of
// 6,625 probabilities per step (~30 MB a batch copied into JavaScript). The reduced outputs
// must be the full model's values to the bit, compared here with onnxruntime's own Softmax
// output of the shipped model, reduced in the test.

import fs from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-web';
import { describe, expect, it } from 'vitest';
import { GREEDY_OUTPUTS, withGreedyOutputs } from '../../wasm/ocr/paddle/greedy-outputs.js';
import { configureRuntime, loadModels, MODEL_DIR, MODEL_FILES, readDictionary } from '../../wasm/ocr/paddle/models.js';

const LOAD_TIMEOUT = 600_000;
const OUTPUTS = [GREEDY_OUTPUTS.best, GREEDY_OUTPUTS.probability, GREEDY_OUTPUTS.space];

/** A batch of 2 lines 48 × 200 whose pixels follow a fixed pattern (values in −1…1). */
function input(): ort.Tensor {
  const dims = [2, 3, 48, 200];
  const data = new Float32Array(dims.reduce((a, b) => a * b)).map((_, i) => Math.sin(i * 0.37) * Math.cos(i * 0.011));
  return new ort.Tensor('float32', data, dims);
}

describe('recognition outputs for greedy CTC', () => {
  it(
    "gives the int8 and the Latin recognition sessions greedy CTC's three outputs, not the classes' probabilities",
    async () => {
      const models = await loadModels({ threads: 1 });
      expect(models.recognition.outputNames).toEqual(OUTPUTS);
      expect((await models.latinRecognition()).outputNames).toEqual(OUTPUTS);
    },
    LOAD_TIMEOUT,
  );

  it(
    "gives each time step's best class, its probability and the space class's, as the full output has them",
    async () => {
      configureRuntime({ threads: 1 });
      const shipped = fs.readFileSync(path.join(MODEL_DIR, MODEL_FILES.recognition));
      const spaceClass = readDictionary().length;
      const full = await ort.InferenceSession.create(shipped);
      const reduced = await ort.InferenceSession.create(withGreedyOutputs(shipped, spaceClass));
      const feeds = { [full.inputNames[0] as string]: input() };
      const probabilities = (await full.run(feeds))[full.outputNames[0] as string] as ort.Tensor;
      const outputs = await reduced.run(feeds);
      const [lines = 0, steps = 0, classes = 0] = probabilities.dims;
      expect(classes).toBe(spaceClass + 1);
      const data = probabilities.data as Float32Array;
      const best = new Int32Array(lines * steps);
      const max = new Float32Array(lines * steps);
      const space = new Float32Array(lines * steps);
      for (let row = 0; row < lines * steps; row++) {
        const scores = data.subarray(row * classes, (row + 1) * classes);
        max[row] = Math.max(...scores);
        best[row] = scores.indexOf(max[row] as number);
        space[row] = scores[spaceClass] as number;
      }
      expect(Array.from(outputs[GREEDY_OUTPUTS.best]?.data as BigInt64Array, Number)).toEqual(Array.from(best));
      expect(outputs[GREEDY_OUTPUTS.probability]?.data).toEqual(max);
      expect(outputs[GREEDY_OUTPUTS.space]?.data).toEqual(space);
      expect(new Set(best).size).toBeGreaterThan(1);
    },
    LOAD_TIMEOUT,
  );
});
