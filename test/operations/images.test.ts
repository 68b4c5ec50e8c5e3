// The image operations in process, one `describe` per operation and one `it` per rule of
// docs/api.md ("Images"). Outputs are measured with ImageMagick's identify, never with docwasm.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRaw, photoPixels, quadrantPixels } from '../helpers/images.js';
import { ROOT, leftoverTempFiles } from '../helpers/service.js';
import { codeOf, inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

/** [width, height, ImageMagick's format name] */
function identify(file: string): [number, number, string] {
  const [w, h, format] = execFileSync('identify', ['-format', '%w %h %m\n', file]).toString().trim().split('\n')[0]!.split(' ');
  return [Number(w), Number(h), format as string];
}

beforeAll(async () => {
  ops = await inProcess();
  ops.put('wide.png', await fromRaw(quadrantPixels(400, 200)).png().toBuffer());
  ops.put('photo.jpg', await fromRaw(photoPixels(800, 600)).jpeg({ quality: 95 }).toBuffer());
  for (const name of fs.readdirSync(`${ROOT}/fixtures/images`)) ops.put(name, fs.readFileSync(`${ROOT}/fixtures/images/${name}`));
});
afterAll(() => ops.close());

describe('image/convert', () => {
  for (const ext of ['jpg', 'png', 'webp', 'avif']) {
    it(`takes its format from the output extension: .${ext}`, async () => {
      const answer = await ops.ok('image/convert', { input: 'wide.png', output: `out.${ext}` });
      const [width, height, format] = identify(ops.at(`out.${ext}`));
      expect([width, height]).toEqual([400, 200]);
      // ImageMagick names AVIF by its HEIF coder on Debian 12.
      expect(format).toMatch({ jpg: /^JPEG$/, png: /^PNG$/, webp: /^WEBP$/, avif: /^(AVIF|HEIC)$/ }[ext] as RegExp);
      expect(answer.data).toMatchObject({ width: 400, height: 200, bytes: fs.statSync(ops.at(`out.${ext}`)).size });
    });
  }

  for (const input of ['quadrants.bmp', 'quadrants.gif', 'quadrants.tiff', 'quadrants.webp', 'quadrants.avif']) {
    it(`reads ${input.split('.')[1]} (made by other programs)`, async () => {
      await ops.ok('image/convert', { input, output: `${input}.png` });
      expect(identify(ops.at(`${input}.png`)).slice(0, 2)).toEqual([16, 16]);
    });
  }

  it('answers UNSUPPORTED_FORMAT for an output extension it cannot write', async () => {
    expect(codeOf(await ops.run('image/convert', { input: 'wide.png', output: 'out.xyz' }))).toBe('UNSUPPORTED_FORMAT');
  });

  it('answers UNSUPPORTED_FORMAT for a file that is no image, whatever its extension', async () => {
    ops.put('not-image.png', 'hello');
    expect(codeOf(await ops.run('image/convert', { input: 'not-image.png', output: 'x.jpg' }))).toBe('UNSUPPORTED_FORMAT');
  });

  it('answers INVALID_INPUT for a damaged image, with no output and no temp file left', async () => {
    ops.put('cut.png', fs.readFileSync(ops.at('wide.png')).subarray(0, 200));
    expect(codeOf(await ops.run('image/convert', { input: 'cut.png', output: 'cut.jpg' }))).toBe('INVALID_INPUT');
    expect(fs.existsSync(ops.at('cut.jpg'))).toBe(false);
    expect(leftoverTempFiles(ops.dir)).toEqual([]);
  });

  it('refuses quality outside 1–100', async () => {
    expect(codeOf(await ops.run('image/convert', { input: 'wide.png', output: 'q.jpg', quality: 0 }))).toBe('VALIDATION_ERROR');
    expect(codeOf(await ops.run('image/convert', { input: 'wide.png', output: 'q.jpg', quality: 101 }))).toBe('VALIDATION_ERROR');
  });
});

describe('image/compress', () => {
  it('re-encodes a JPEG smaller and reports both sizes', async () => {
    const answer = await ops.ok('image/compress', { input: 'photo.jpg', output: 'small.jpg' });
    expect(answer.data?.inputBytes).toBe(fs.statSync(ops.at('photo.jpg')).size);
    expect(answer.data?.outputBytes).toBe(fs.statSync(ops.at('small.jpg')).size);
    expect(answer.data?.outputBytes as number).toBeLessThan(answer.data?.inputBytes as number);
    expect(identify(ops.at('small.jpg'))).toEqual([800, 600, 'JPEG']);
  });

  it('optimises PNG losslessly (same pixels)', async () => {
    await ops.ok('image/compress', { input: 'wide.png', output: 'small.png' });
    const compare = spawnSync('compare', ['-metric', 'AE', ops.at('wide.png'), ops.at('small.png'), 'null:'], { encoding: 'utf8' });
    expect(compare.stderr.trim()).toBe('0');
  });
});

describe('image/resize', () => {
  it('keeps the aspect ratio when one side is given', async () => {
    await ops.ok('image/resize', { input: 'wide.png', output: 'w.png', width: 100 });
    expect(identify(ops.at('w.png')).slice(0, 2)).toEqual([100, 50]);
  });

  it('makes exactly width × height when both are given, and fits inside with fit inside', async () => {
    await ops.ok('image/resize', { input: 'wide.png', output: 'fill.png', width: 90, height: 90 });
    expect(identify(ops.at('fill.png')).slice(0, 2)).toEqual([90, 90]);
    await ops.ok('image/resize', { input: 'wide.png', output: 'inside.png', width: 90, height: 90, fit: 'inside' });
    expect(identify(ops.at('inside.png')).slice(0, 2)).toEqual([90, 45]);
  });

  it('multiplies both sides by scale, at least 1 px', async () => {
    await ops.ok('image/resize', { input: 'wide.png', output: 'half.png', scale: 0.5 });
    expect(identify(ops.at('half.png')).slice(0, 2)).toEqual([200, 100]);
    await ops.ok('image/resize', { input: 'wide.png', output: 'dot.png', scale: 0.0001 });
    expect(identify(ops.at('dot.png')).slice(0, 2)).toEqual([1, 1]);
  });

  it('refuses scale together with width, and a request with neither', async () => {
    expect(codeOf(await ops.run('image/resize', { input: 'wide.png', output: 'x.png', scale: 2, width: 10 }))).toBe('VALIDATION_ERROR');
    expect(codeOf(await ops.run('image/resize', { input: 'wide.png', output: 'x.png' }))).toBe('VALIDATION_ERROR');
  });

  it('answers TOO_LARGE for a result over --max-pixels', async () => {
    expect(codeOf(await ops.run('image/resize', { input: 'wide.png', output: 'huge.png', width: 20_000, height: 20_000 }))).toBe('TOO_LARGE');
    expect(fs.existsSync(ops.at('huge.png'))).toBe(false);
  });
});
