// PP-OCR detects a page whose input is taller than a band in bands of rows stitched on the
// probability map (wasm/ocr/paddle/detection.ts): the fewest bands within the row limit, all of
// one height, every map row kept by exactly one band with 96 rows of context on each side that
// has a neighbour, each band starting on the model's 32-row grid.

import { describe, expect, it } from 'vitest';
import { detectionBands } from '../../wasm/ocr/paddle/detection.js';

const HALO = 96;

/** Each rule of the layout, for one page height and row limit. */
function expectLayout(height: number, maxRows: number): ReturnType<typeof detectionBands> {
  const bands = detectionBands(height, maxRows);
  let next = 0;
  for (const band of bands) {
    expect(band.keepFrom).toBe(next);
    next = band.keepTo;
    expect(band.from % 32).toBe(0);
    expect(band.from).toBeGreaterThanOrEqual(0);
    expect(band.to).toBeLessThanOrEqual(height);
    expect(band.to - band.from).toBe((bands[0]?.to ?? 0) - (bands[0]?.from ?? 0));
    expect(band.to - band.from).toBeLessThanOrEqual(Math.max(2 * HALO + 32, maxRows));
    if (band.keepFrom > 0) expect(band.keepFrom - band.from).toBeGreaterThanOrEqual(HALO);
    if (band.keepTo < height) expect(band.to - band.keepTo).toBeGreaterThanOrEqual(HALO);
  }
  expect(next).toBe(height);
  return bands;
}

describe('detection bands', () => {
  it('reads a page that fits one band in one run', () => {
    expect(expectLayout(1632, 2083)).toEqual([{ from: 0, to: 1632, keepFrom: 0, keepTo: 1632 }]);
  });

  it('detects an A4 page (1152 × 1632 of input) in three bands of 672 rows under 0.8 MP', () => {
    const bands = expectLayout(1632, Math.floor(800_000 / 1152));
    expect(bands.map((band) => [band.from, band.to])).toEqual([
      [0, 672],
      [480, 1152],
      [960, 1632],
    ]);
  });

  it('lays out long pages, small limits and every height between within the rules', () => {
    for (const [height, maxRows] of [
      [16_000, 512],
      [6400, 520],
      [4896, 2083],
      [1632, 100],
    ] as const)
      expectLayout(height, maxRows);
    for (let height = 64; height <= 4000; height += 32) expectLayout(height, 672);
  });
});
