// /api/image/compress: lossy formats at `quality` (default 70), PNG optimised losslessly, and a
// result never larger than the input when the format is unchanged.

import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';
import { fromRaw, halfTransparentPixels, photoPixels, readBack, writeFixture } from '../helpers/images.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.stop();
});

const compress = (body: Record<string, unknown>) => svc.post('/api/image/compress', body);

describe('/api/image/compress', () => {
  it('re-encodes a JPEG smaller and reports inputBytes and outputBytes', async () => {
    const input = await writeFixture(svc.dir, 'big.jpg', fromRaw(photoPixels(640, 480)).jpeg({ quality: 100 }));
    const res = await compress({ input: 'big.jpg', output: 'small.jpg' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const output = path.join(svc.dir, 'small.jpg');
    expect(res.body.data).toMatchObject({ inputBytes: fs.statSync(input).size, outputBytes: fs.statSync(output).size, keptOriginal: false });
    expect(fs.statSync(output).size).toBeLessThan(fs.statSync(input).size);
    const back = await readBack(output);
    expect([back.format, back.width, back.height]).toEqual(['jpeg', 640, 480]);
  });

  it('uses quality 70 by default (between an explicit 40 and 95)', async () => {
    await writeFixture(svc.dir, 'q.jpg', fromRaw(photoPixels(400, 300)).jpeg({ quality: 100 }));
    const sizes: Record<string, number> = {};
    for (const quality of [40, undefined, 95]) {
      const res = await compress({ input: 'q.jpg', output: `q-${quality}.webp`, ...(quality && { quality }) });
      expect(res.status).toBe(200);
      sizes[String(quality)] = res.body.data?.outputBytes as number;
    }
    expect(sizes['40']).toBeLessThan(sizes['undefined'] as number);
    expect(sizes['undefined']).toBeLessThan(sizes['95'] as number);
  });

  it('optimises PNG losslessly: same pixels, not larger', async () => {
    const raw = halfTransparentPixels(200, 100);
    const input = await writeFixture(svc.dir, 'plain.png', fromRaw(raw).png({ compressionLevel: 0 }));
    const res = await compress({ input: 'plain.png', output: 'opt.png' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const output = path.join(svc.dir, 'opt.png');
    expect(fs.statSync(output).size).toBeLessThan(fs.statSync(input).size);
    const [before, after] = await Promise.all([input, output].map((f) => sharp(f).ensureAlpha().raw().toBuffer()));
    expect(after?.equals(before as Buffer)).toBe(true);
  });

  it('converts other formats to optimised PNG losslessly', async () => {
    await writeFixture(svc.dir, 'lossless.webp', fromRaw(photoPixels(120, 90)).webp({ lossless: true }));
    const res = await compress({ input: 'lossless.webp', output: 'from-webp.png' });
    expect(res.status).toBe(200);
    const [before, after] = await Promise.all(['lossless.webp', 'from-webp.png'].map((f) => sharp(path.join(svc.dir, f)).ensureAlpha().raw().toBuffer()));
    expect(after?.equals(before as Buffer)).toBe(true);
  });

  it('never makes a file bigger: with the same format and no gain the original bytes are written', async () => {
    const input = await writeFixture(svc.dir, 'tiny.jpg', fromRaw(photoPixels(300, 200)).jpeg({ quality: 10, mozjpeg: true }));
    const res = await compress({ input: 'tiny.jpg', output: 'tiny-out.jpg', quality: 100 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ keptOriginal: true, inputBytes: fs.statSync(input).size, outputBytes: fs.statSync(input).size });
    expect(fs.readFileSync(path.join(svc.dir, 'tiny-out.jpg')).equals(fs.readFileSync(input))).toBe(true);
    expect(res.body.message).toMatch(/original/i);
  });

  it('validates quality and the output extension, and reports bad input', async () => {
    await writeFixture(svc.dir, 'v.png', fromRaw(photoPixels(16, 16)).png());
    const badQuality = await compress({ input: 'v.png', output: 'v.jpg', quality: 0 });
    expect([badQuality.status, badQuality.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    const badExt = await compress({ input: 'v.png', output: 'v.gif' });
    expect([badExt.status, badExt.body.code]).toEqual([422, 'UNSUPPORTED_FORMAT']);
    await writeFixture(svc.dir, 'broken.png', (await fromRaw(photoPixels(64, 64)).png().toBuffer()).subarray(0, 120));
    const broken = await compress({ input: 'broken.png', output: 'broken-out.png' });
    expect([broken.status, broken.body.code]).toEqual([422, 'INVALID_INPUT']);
    const missing = await compress({ input: 'missing.png', output: 'm.png' });
    expect([missing.status, missing.body.code]).toEqual([404, 'FILE_NOT_FOUND']);
    expect(fs.existsSync(path.join(svc.dir, 'broken-out.png'))).toBe(false);
    expect(leftoverTempFiles(svc.dir)).toEqual([]);
  });

  it('replaces the input atomically when output equals input', async () => {
    const file = await writeFixture(svc.dir, 'inplace.png', fromRaw(photoPixels(150, 100)).png({ compressionLevel: 0 }));
    const pixels = await sharp(file).raw().toBuffer();
    const before = fs.statSync(file);
    const res = await compress({ input: 'inplace.png', output: 'inplace.png' });
    expect(res.status).toBe(200);
    const after = fs.statSync(file);
    expect(after.ino).not.toBe(before.ino);
    expect(after.size).toBeLessThan(before.size);
    expect((await sharp(file).raw().toBuffer()).equals(pixels)).toBe(true);
    expect(leftoverTempFiles(svc.dir)).toEqual([]);
  });
});
