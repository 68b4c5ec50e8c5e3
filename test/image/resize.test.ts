// /api/image/resize: one side keeps the aspect ratio, both is exact (fit fill | inside | cover),
// scale multiplies both sides (result ≥ 1 px); scale together with width/height is refused.

import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';
import {
  QUADRANT_COLOURS,
  colourDistance,
  fromRaw,
  halfTransparentPixels,
  photoPixels,
  pixelAt,
  quadrantPixels,
  readBack,
  writeFixture,
} from '../helpers/images.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService();
  await writeFixture(svc.dir, 'src.png', fromRaw(quadrantPixels(400, 200)).png());
  await writeFixture(svc.dir, 'photo.jpg', fromRaw(photoPixels(1200, 900)).jpeg());
});
afterAll(async () => {
  await svc?.stop();
});

const resize = (body: Record<string, unknown>) => svc.post('/api/image/resize', body);

async function resizedSize(body: Record<string, unknown>): Promise<[number, number]> {
  const res = await resize({ input: 'src.png', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const back = await readBack(path.join(svc.dir, body.output as string));
  expect(res.body.data).toMatchObject({ width: back.width, height: back.height });
  return [back.width, back.height];
}

describe('/api/image/resize', () => {
  it('keeps the aspect ratio when only width or only height is given', async () => {
    expect(await resizedSize({ output: 'w.png', width: 100 })).toEqual([100, 50]);
    expect(await resizedSize({ output: 'h.png', height: 50 })).toEqual([100, 50]);
    expect(await resizedSize({ output: 'up.png', width: 801 })).toEqual([801, 401]);
  });

  it('makes exactly width×height when both are given (fit fill, the default)', async () => {
    expect(await resizedSize({ output: 'fill.png', width: 120, height: 120 })).toEqual([120, 120]);
    expect(await resizedSize({ output: 'fill2.png', width: 120, height: 120, fit: 'fill' })).toEqual([120, 120]);
  });

  it('fits inside the box keeping the aspect ratio with fit inside', async () => {
    expect(await resizedSize({ output: 'inside.png', width: 120, height: 120, fit: 'inside' })).toEqual([120, 60]);
  });

  it('covers the box and crops the centre with fit cover', async () => {
    expect(await resizedSize({ output: 'cover.png', width: 100, height: 100, fit: 'cover' })).toEqual([100, 100]);
    const back = await readBack(path.join(svc.dir, 'cover.png'));
    // The centre 200×200 of the source: left half red/blue, right half green/yellow.
    expect(colourDistance(pixelAt(back.pixels, 100, 10, 10), QUADRANT_COLOURS[0] as never)).toBeLessThanOrEqual(8);
    expect(colourDistance(pixelAt(back.pixels, 100, 90, 90), QUADRANT_COLOURS[3] as never)).toBeLessThanOrEqual(8);
  });

  it('multiplies both sides by scale, never below 1 px', async () => {
    expect(await resizedSize({ output: 'half.png', scale: 0.5 })).toEqual([200, 100]);
    expect(await resizedSize({ output: 'double.png', scale: 2 })).toEqual([800, 400]);
    expect(await resizedSize({ output: 'dot.png', scale: 0.001 })).toEqual([1, 1]);
  });

  it('keeps the picture: the quadrants stay where they were', async () => {
    const back = await readBack(path.join(svc.dir, 'half.png'));
    QUADRANT_COLOURS.forEach((colour, q) => {
      const x = q % 2 === 0 ? 20 : 180;
      const y = q < 2 ? 20 : 80;
      expect(colourDistance(pixelAt(back.pixels, 200, x, y), colour)).toBeLessThanOrEqual(6);
    });
  });

  it('shrinks a photo a lot (box pre-shrink + lanczos3) to the right size and format', async () => {
    const res = await resize({ input: 'photo.jpg', output: 'thumb.webp', width: 150, quality: 80 });
    expect(res.status).toBe(200);
    const back = await readBack(path.join(svc.dir, 'thumb.webp'));
    expect([back.format, back.width, back.height]).toEqual(['webp', 150, 113]);
    // photoPixels: red grows left→right, green top→bottom.
    expect(pixelAt(back.pixels, 150, 145, 56)[0]).toBeGreaterThan(220);
    expect(pixelAt(back.pixels, 150, 75, 110)[1]).toBeGreaterThan(215);
  });

  it('shrinks a JPEG on load (DCT scaling) with its EXIF orientation and a cover crop applied, as sharp does', async () => {
    for (const orientation of [1, 3, 6, 8]) {
      const file = await writeFixture(
        svc.dir,
        `exif-${orientation}.jpg`,
        fromRaw(quadrantPixels(800, 400)).jpeg({ quality: 95 }).withMetadata({ orientation }),
      );
      const res = await resize({ input: `exif-${orientation}.jpg`, output: `exif-${orientation}.png`, width: 100, height: 60, fit: 'cover' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const back = await readBack(path.join(svc.dir, `exif-${orientation}.png`));
      const expected = await sharp(file).rotate().resize(100, 60, { fit: 'cover' }).ensureAlpha().raw().toBuffer();
      expect([back.width, back.height]).toEqual([100, 60]);
      for (const [x, y] of [
        [10, 10],
        [90, 10],
        [10, 50],
        [90, 50],
      ] as const) {
        expect(colourDistance(pixelAt(back.pixels, 100, x, y), pixelAt(expected, 100, x, y)), `orientation ${orientation} at ${x},${y}`).toBeLessThanOrEqual(
          12,
        );
      }
    }
  });

  it('keeps transparent areas clean when shrinking (no dark fringe)', async () => {
    await writeFixture(svc.dir, 'alpha.png', fromRaw(halfTransparentPixels(800, 400)).png());
    const res = await resize({ input: 'alpha.png', output: 'alpha-small.png', width: 100 });
    expect(res.status).toBe(200);
    const back = await readBack(path.join(svc.dir, 'alpha-small.png'));
    expect(pixelAt(back.pixels, 100, 10, 25)[3]).toBe(0);
    expect(colourDistance(pixelAt(back.pixels, 100, 90, 25), [0, 0, 255, 255])).toBeLessThanOrEqual(2);
    const white = await resize({ input: 'alpha.png', output: 'alpha-small.jpg', width: 100 });
    expect(white.status).toBe(200);
    const jpeg = await readBack(path.join(svc.dir, 'alpha-small.jpg'));
    expect(colourDistance(pixelAt(jpeg.pixels, 100, 10, 25), [255, 255, 255, 255])).toBeLessThanOrEqual(4);
  });

  it('refuses ambiguous or missing sizes with VALIDATION_ERROR', async () => {
    for (const body of [
      {},
      { scale: 0.5, width: 10 },
      { scale: 2, height: 10 },
      { width: 0 },
      { width: 10.5 },
      { scale: 0 },
      { scale: -1 },
      { width: 10, fit: 'stretch' },
      { width: '10' },
    ]) {
      const res = await resize({ input: 'src.png', output: 'never.png', ...body });
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, 'VALIDATION_ERROR']);
    }
    expect(fs.existsSync(path.join(svc.dir, 'never.png'))).toBe(false);
  });

  it('refuses a result larger than the pixel limit with TOO_LARGE', async () => {
    const res = await resize({ input: 'src.png', output: 'huge.png', scale: 60 }); // 24000×12000 = 288 MP > 100 MP
    expect([res.status, res.body.code]).toEqual([413, 'TOO_LARGE']);
    expect(fs.existsSync(path.join(svc.dir, 'huge.png'))).toBe(false);
  });

  it('refuses a size the output format cannot store with UNSUPPORTED_CONVERSION', async () => {
    const res = await resize({ input: 'src.png', output: 'wide.webp', width: 20_000, height: 10 });
    expect([res.status, res.body.code]).toEqual([422, 'UNSUPPORTED_CONVERSION']);
    expect(leftoverTempFiles(svc.dir)).toEqual([]);
  });

  it('replaces the input atomically when output equals input', async () => {
    const file = await writeFixture(svc.dir, 'self.jpg', fromRaw(photoPixels(300, 200)).jpeg());
    const inode = fs.statSync(file).ino;
    const res = await resize({ input: 'self.jpg', output: 'self.jpg', scale: 0.5 });
    expect(res.status).toBe(200);
    expect(fs.statSync(file).ino).not.toBe(inode);
    const back = await readBack(file);
    expect([back.width, back.height]).toEqual([150, 100]);
    expect(leftoverTempFiles(svc.dir)).toEqual([]);
  });
});
