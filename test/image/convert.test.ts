// /api/image/convert as docs/api.md ("Images") describes it, over HTTP against the built service. Outputs
// are decoded back with sharp, independently of the service's codecs.

import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';
import {
  QUADRANT_COLOURS,
  bmp24,
  bmpV5,
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
});
afterAll(async () => {
  await svc?.stop();
});

const convert = (body: Record<string, unknown>) => svc.post('/api/image/convert', body);

describe('/api/image/convert', () => {
  it('writes the format of the output extension and reports width, height, format and bytes', async () => {
    await writeFixture(svc.dir, 'photo.png', fromRaw(photoPixels(320, 240)).png());
    for (const [ext, format] of [
      ['jpg', 'jpeg'],
      ['jpeg', 'jpeg'],
      ['png', 'png'],
      ['webp', 'webp'],
      ['avif', 'avif'],
    ] as const) {
      const res = await convert({ input: 'photo.png', output: `out/photo.${ext}` });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const file = path.join(svc.dir, `out/photo.${ext}`);
      expect(res.body).toMatchObject({ success: true, outputPath: file, data: { width: 320, height: 240, format, bytes: fs.statSync(file).size } });
      const back = await readBack(file);
      expect([back.format, back.width, back.height]).toEqual([format, 320, 240]);
    }
  });

  it('judges the output extension case-insensitively', async () => {
    await writeFixture(svc.dir, 'case.png', fromRaw(photoPixels(64, 48)).png());
    const res = await convert({ input: 'case.png', output: 'case.WebP' });
    expect(res.status).toBe(200);
    expect((await readBack(path.join(svc.dir, 'case.WebP'))).format).toBe('webp');
  });

  it('reads JPEG, PNG, WebP, AVIF, BMP (also V5 headers), GIF and TIFF by content, whatever the input extension', async () => {
    const raw = quadrantPixels(40, 30);
    const inputs: Record<string, Buffer> = {
      jpeg: await fromRaw(raw).jpeg({ quality: 95 }).toBuffer(),
      png: await fromRaw(raw).png().toBuffer(),
      webp: await fromRaw(raw).webp({ lossless: true }).toBuffer(),
      avif: await fromRaw(raw).avif({ quality: 90 }).toBuffer(),
      bmp: bmp24(raw),
      bmpv5: bmpV5(raw),
      gif: await fromRaw(raw).gif().toBuffer(),
      tiff: await fromRaw(raw).tiff({ compression: 'lzw' }).toBuffer(),
    };
    for (const [name, bytes] of Object.entries(inputs)) {
      await writeFixture(svc.dir, `formats/${name}.data`, bytes); // misleading extension on purpose
      const res = await convert({ input: `formats/${name}.data`, output: `formats/${name}.png` });
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
      const back = await readBack(path.join(svc.dir, `formats/${name}.png`));
      expect([back.width, back.height]).toEqual([40, 30]);
      QUADRANT_COLOURS.forEach((colour, q) => {
        const x = q % 2 === 0 ? 5 : 35;
        const y = q < 2 ? 5 : 25;
        expect(colourDistance(pixelAt(back.pixels, 40, x, y), colour), `${name} quadrant ${q}`).toBeLessThanOrEqual(12);
      });
    }
  });

  it('applies the JPEG EXIF orientation to the pixels (all 8 tags)', async () => {
    const raw = quadrantPixels(64, 32);
    for (let orientation = 1; orientation <= 8; orientation++) {
      await writeFixture(svc.dir, `exif/o${orientation}.jpg`, fromRaw(raw).jpeg({ quality: 95 }).withMetadata({ orientation }));
      const res = await convert({ input: `exif/o${orientation}.jpg`, output: `exif/o${orientation}.png` });
      expect(res.status).toBe(200);
      const expected = await sharp(path.join(svc.dir, `exif/o${orientation}.jpg`))
        .rotate()
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const back = await readBack(path.join(svc.dir, `exif/o${orientation}.png`));
      expect([back.width, back.height], `orientation ${orientation}`).toEqual([expected.info.width, expected.info.height]);
      expect(back.width, `orientation ${orientation}`).toBe(orientation >= 5 ? 32 : 64);
      for (const [x, y] of [
        [4, 4],
        [back.width - 5, 4],
        [4, back.height - 5],
        [back.width - 5, back.height - 5],
      ] as const) {
        expect(colourDistance(pixelAt(back.pixels, back.width, x, y), pixelAt(expected.data, back.width, x, y))).toBeLessThanOrEqual(12);
      }
      expect((await sharp(path.join(svc.dir, `exif/o${orientation}.png`)).metadata()).orientation ?? 1).toBe(1);
    }
  });

  it('flattens transparency onto white for JPEG output', async () => {
    await writeFixture(svc.dir, 'alpha.png', fromRaw(halfTransparentPixels(40, 20)).png());
    const res = await convert({ input: 'alpha.png', output: 'alpha.jpg' });
    expect(res.status).toBe(200);
    const back = await readBack(path.join(svc.dir, 'alpha.jpg'));
    expect(colourDistance(pixelAt(back.pixels, 40, 5, 10), [255, 255, 255, 255])).toBeLessThanOrEqual(4);
    expect(colourDistance(pixelAt(back.pixels, 40, 35, 10), [0, 0, 255, 255])).toBeLessThanOrEqual(8);
  });

  it('keeps transparency and every pixel exactly for PNG output (lossless)', async () => {
    const raw = halfTransparentPixels(30, 20);
    raw.data[(5 * 30 + 20) * 4 + 3] = 77; // one semi-transparent pixel
    await writeFixture(svc.dir, 'lossless.webp', fromRaw(raw).webp({ lossless: true, exact: true }));
    const res = await convert({ input: 'lossless.webp', output: 'lossless.png' });
    expect(res.status).toBe(200);
    const original = await sharp(path.join(svc.dir, 'lossless.webp')).ensureAlpha().raw().toBuffer();
    expect((await readBack(path.join(svc.dir, 'lossless.png'))).pixels.equals(original)).toBe(true);
  });

  it('uses quality (1–100, default 85) for lossy output', async () => {
    await writeFixture(svc.dir, 'q.png', fromRaw(photoPixels(300, 200)).png());
    const sizes: number[] = [];
    for (const quality of [20, undefined, 100]) {
      const res = await convert({ input: 'q.png', output: `q-${quality ?? 'default'}.jpg`, ...(quality && { quality }) });
      expect(res.status).toBe(200);
      sizes.push(res.body.data?.bytes as number);
    }
    expect(sizes[0]).toBeLessThan(sizes[1] as number);
    expect(sizes[1]).toBeLessThan(sizes[2] as number);
    for (const quality of [0, 101, 50.5, '80']) {
      const res = await convert({ input: 'q.png', output: 'q-bad.jpg', quality });
      expect(res.status, String(quality)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it('refuses an output extension it cannot write with UNSUPPORTED_FORMAT, writing nothing', async () => {
    await writeFixture(svc.dir, 'ext.png', fromRaw(photoPixels(16, 16)).png());
    for (const output of ['ext.gif', 'ext.bmp', 'ext', 'ext.tiff']) {
      const res = await convert({ input: 'ext.png', output });
      expect(res.status, output).toBe(422);
      expect(res.body.code).toBe('UNSUPPORTED_FORMAT');
      expect(fs.existsSync(path.join(svc.dir, output))).toBe(false);
    }
  });

  it('refuses content that is not a supported image with UNSUPPORTED_FORMAT', async () => {
    await writeFixture(svc.dir, 'text.jpg', Buffer.from('this is not an image at all, just text'));
    await writeFixture(svc.dir, 'doc.png', Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'));
    for (const input of ['text.jpg', 'doc.png']) {
      const res = await convert({ input, output: 'never.png' });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('UNSUPPORTED_FORMAT');
    }
    expect(fs.existsSync(path.join(svc.dir, 'never.png'))).toBe(false);
  });

  it('reports a corrupt image as INVALID_INPUT and leaves no output and no temp file', async () => {
    const jpeg = await fromRaw(photoPixels(200, 200)).jpeg().toBuffer();
    const png = await fromRaw(photoPixels(200, 200)).png().toBuffer();
    await writeFixture(svc.dir, 'bad/truncated.png', png.subarray(0, 100));
    await writeFixture(svc.dir, 'bad/garbage.jpg', Buffer.concat([jpeg.subarray(0, 20), Buffer.alloc(500, 0x55)]));
    for (const input of ['bad/truncated.png', 'bad/garbage.jpg']) {
      const res = await convert({ input, output: 'bad/out.webp' });
      expect(res.status, `${input}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body.code).toBe('INVALID_INPUT');
    }
    expect(fs.readdirSync(path.join(svc.dir, 'bad')).sort()).toEqual(['garbage.jpg', 'truncated.png']);
    expect(leftoverTempFiles(svc.dir)).toEqual([]);
  });

  it('reports a missing input as FILE_NOT_FOUND and an unwritable output as OUTPUT_NOT_WRITABLE', async () => {
    const missing = await convert({ input: 'nope.png', output: 'nope.jpg' });
    expect([missing.status, missing.body.code]).toEqual([404, 'FILE_NOT_FOUND']);
    await writeFixture(svc.dir, 'w.png', fromRaw(photoPixels(16, 16)).png());
    await writeFixture(svc.dir, 'afile', Buffer.from('x'));
    const blocked = await convert({ input: 'w.png', output: 'afile/out.jpg' });
    expect([blocked.status, blocked.body.code]).toEqual([409, 'OUTPUT_NOT_WRITABLE']);
    const missingField = await convert({ output: 'x.jpg' });
    expect([missingField.status, missingField.body.code]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('replaces the input atomically when output equals input', async () => {
    const file = await writeFixture(svc.dir, 'same.jpg', fromRaw(photoPixels(120, 80)).jpeg({ quality: 100 }));
    const before = fs.statSync(file);
    const res = await convert({ input: 'same.jpg', output: 'same.jpg', quality: 40 });
    expect(res.status).toBe(200);
    const after = fs.statSync(file);
    expect(after.ino).not.toBe(before.ino); // a new file renamed over the old one
    expect(after.size).toBe(res.body.data?.bytes);
    expect(after.size).toBeLessThan(before.size);
    expect((await readBack(file)).width).toBe(120);
    expect(leftoverTempFiles(svc.dir)).toEqual([]);
  });

  it('serves 20 concurrent requests, each with a correct output', async () => {
    await writeFixture(svc.dir, 'many.jpg', fromRaw(photoPixels(400, 300)).jpeg());
    const formats = ['webp', 'png', 'jpg', 'avif'];
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => convert({ input: 'many.jpg', output: `many/${i}.${formats[i % 4]}` })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    for (let i = 0; i < 20; i++) {
      const back = await readBack(path.join(svc.dir, `many/${i}.${formats[i % 4]}`));
      expect([back.format, back.width, back.height]).toEqual([formats[i % 4] === 'jpg' ? 'jpeg' : formats[i % 4], 400, 300]);
    }
    expect(leftoverTempFiles(svc.dir)).toEqual([]);
  });
});
