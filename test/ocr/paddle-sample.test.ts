// `auto`'s sample on an image of a few lines (issue 46): when the rough look's boxes are the
// image's own (its text tall enough) and its lines fit in one recognition batch, the sample is
// the page's own reading — its own recognition calls, not a sample call and then the page's. The
// reading is the one made without a sample, the Chinese block reads within a few glyphs of the
// text it was rendered from, and a few lines of English are still given up after that one
// batch (for tesseract), before any Latin line is read again by the float model. In-process,
// the shipped models, pages rendered by Pango.

import { beforeAll, describe, expect, it } from 'vitest';
import type { InferenceSession } from 'onnxruntime-web';
import { characterErrorRate } from '../helpers/ocr-accuracy.js';
import { CHINESE_BLOCK, ENGLISH_PARAGRAPHS, expectedText, greyRaster, renderTestPage } from '../helpers/ocr-page-set.js';
import { loadModels, type PaddleModels } from '../../wasm/ocr/paddle/models.js';
import { pageText, readingOrder } from '../../wasm/ocr/paddle/page-text.js';
import type { Raster } from '../../wasm/ocr/paddle/raster.js';
import { readPage, SYSTEM_DEFAULTS } from '../../wasm/ocr/paddle/system.js';
import { latinShare } from '../../wasm/ocr/paddle-reader.js';

const READ_TIMEOUT = 600_000;
const ENGLISH_BLOCK = {
  name: 'en Sans 14pt block 2556x700',
  font: 'DejaVu Sans',
  points: 14,
  dpi: 300,
  variant: 'clean' as const,
  paragraphs: [ENGLISH_PARAGRAPHS[0] as string],
  size: { width: 2556, height: 700 },
};
/** worker.ts's cut-off: a sample at least this Latin sends the page to tesseract. */
const LATIN_PAGE = (sample: readonly { text: string }[]) => latinShare(sample.map((line) => line.text).join('')) >= 0.9;

let models: PaddleModels;
let block: Raster;
let english: Raster;

beforeAll(async () => {
  models = await loadModels({ threads: 1 });
  block = await greyRaster(await renderTestPage(CHINESE_BLOCK));
  english = await greyRaster(await renderTestPage(ENGLISH_BLOCK));
}, READ_TIMEOUT);

/** The models with the recognition calls and the Latin model's loads counted. */
function counted(): { models: PaddleModels; calls: { recognition: number; latinLoads: number } } {
  const calls = { recognition: 0, latinLoads: 0 };
  const recognition = new Proxy(models.recognition, {
    get(target, key): unknown {
      if (key !== 'run') return Reflect.get(target, key) as unknown;
      return (...args: Parameters<InferenceSession['run']>) => {
        calls.recognition++;
        return target.run(...args);
      };
    },
  });
  const latinRecognition = () => {
    calls.latinLoads++;
    return models.latinRecognition();
  };
  return { models: { ...models, recognition, latinRecognition }, calls };
}

describe("auto's sample of an image of a few lines", () => {
  it(
    'reads a 5-line Chinese block in the recognition calls it takes without a sample',
    async () => {
      const sampled = counted();
      const withSample = await readPage(sampled.models, block, { ...SYSTEM_DEFAULTS, abandonAfterSample: LATIN_PAGE });
      expect(withSample.abandoned).toBe(false);
      // Its 4 full lines in one call, its short last line in another (recognition.ts BATCH_FILL): no sample call besides.
      expect(sampled.calls.recognition).toBe(2);
      const unsampled = counted();
      const plain = await readPage(unsampled.models, block, SYSTEM_DEFAULTS);
      expect(unsampled.calls.recognition).toBe(2);
      const text = pageText(readingOrder(withSample.lines));
      expect(text).toBe(pageText(readingOrder(plain.lines)));
      expect(characterErrorRate(expectedText(CHINESE_BLOCK), text)).toBeLessThanOrEqual(0.03);
    },
    READ_TIMEOUT,
  );

  it(
    'gives up a few lines of English after that one call, before the float model reads any line again',
    async () => {
      const sampled = counted();
      const reading = await readPage(sampled.models, english, { ...SYSTEM_DEFAULTS, abandonAfterSample: LATIN_PAGE });
      expect(reading.abandoned).toBe(true);
      expect(reading.lines).toEqual([]);
      // Given up after the page's own batch (its detection scale chosen), not after a separate sample.
      expect(reading.timings.detectionScale).toBeGreaterThan(0);
      expect(sampled.calls).toEqual({ recognition: 1, latinLoads: 0 });
    },
    READ_TIMEOUT,
  );
});
