// PP-OCR's text direction classifier (predict_cls.py): each line image squeezed to at most
// 192 × 48, normalised like recognition input, two classes (0° and 180°); a line is turned
// half a turn when the classifier says 180° with more than CLS_THRESHOLD confidence.

import type { InferenceSession } from 'onnxruntime-web';
import { LINE_HEIGHT, type LineImage } from './crop.js';
import { runModel } from './models.js';

const CLASSIFIER_WIDTH = 192;
const CLS_THRESHOLD = 0.9;
const BATCH = 16;

/** For each line, whether it reads upside down. */
export async function upsideDown(session: InferenceSession, lines: readonly LineImage[]): Promise<boolean[]> {
  const flags: boolean[] = [];
  for (let start = 0; start < lines.length; start += BATCH) {
    const batch = lines.slice(start, start + BATCH);
    const output = await runModel(session, classifierInput(batch), [batch.length, 3, LINE_HEIGHT, CLASSIFIER_WIDTH]);
    batch.forEach((_, k) => {
      const upright = output.data[2 * k] as number;
      const turned = output.data[2 * k + 1] as number;
      flags.push(turned > upright && turned > CLS_THRESHOLD);
    });
  }
  return flags;
}

function classifierInput(batch: readonly LineImage[]): Float32Array {
  const plane = LINE_HEIGHT * CLASSIFIER_WIDTH;
  const tensor = new Float32Array(batch.length * 3 * plane);
  batch.forEach((line, k) => {
    const width = Math.min(CLASSIFIER_WIDTH, line.width);
    const scale = line.width / width;
    const linePlane = LINE_HEIGHT * line.width;
    for (let c = 0; c < 3; c++) {
      for (let y = 0; y < LINE_HEIGHT; y++) {
        for (let x = 0; x < width; x++) {
          // Area average over the source columns this column covers.
          const from = Math.floor(x * scale);
          const to = Math.max(from + 1, Math.floor((x + 1) * scale));
          let sum = 0;
          for (let s = from; s < to; s++) sum += line.data[c * linePlane + y * line.width + s] as number;
          tensor[k * 3 * plane + c * plane + y * CLASSIFIER_WIDTH + x] = sum / (to - from) / 127.5 - 1;
        }
      }
    }
  });
  return tensor;
}
