// Budgets of work an image declares beyond its canvas (issue 20, item 4): every GIF frame
// descriptor is held to the pixel limit and their number to a budget, and a progressive JPEG's
// scans are counted — TOO_LARGE in the time it takes to read the file, on every endpoint that
// decodes images, with no output left and the service healthy. Files are built byte by byte
// (test/helpers/image-bombs.ts); the images that must pass are ImageMagick's and libvips'.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gifWithFrames, jpegWithScans, scanStarts } from '../helpers/image-bombs.js';
import { fromRaw, photoPixels } from '../helpers/images.js';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';

let service: RunningService;
const file = (name: string) => path.join(service.dir, name);

/** Each door that decodes an image, as the request body for `input` written to `output`. */
const ENDPOINTS: Record<string, (input: string, output: string) => Record<string, unknown>> = {
  '/api/image/convert': (input, output) => ({ input, output: `${output}.png` }),
  '/api/image/compress': (input, output) => ({ input, output: `${output}.webp`, format: 'webp' }),
  '/api/image/resize': (input, output) => ({ input, output: `${output}.png`, scale: 0.5 }),
  '/api/ocr': (input, output) => ({ input, output: `${output}.txt`, language: 'eng' }),
  '/api/pdf/from-images': (input, output) => ({ files: [input], output: `${output}.pdf` }),
};

beforeAll(async () => {
  // A limit far above these jobs' cost (well under a second each), far below the old cost of the bombs.
  service = await startService(['--timeout', '30']);
  const screen = { width: 16, height: 16 };
  fs.writeFileSync(file('huge-first-frame.gif'), gifWithFrames(screen, [{ width: 65535, height: 65535 }]));
  fs.writeFileSync(
    file('huge-later-frame.gif'),
    gifWithFrames(screen, [
      { width: 16, height: 16 },
      { width: 16, height: 16 },
      { width: 20_000, height: 20_000 },
    ]),
  );
  fs.writeFileSync(
    file('many-frames.gif'),
    gifWithFrames(
      screen,
      Array.from({ length: 10_001 }, () => ({ width: 1, height: 1 })),
    ),
  );
  execFileSync('convert', ['-size', '64x48', 'xc:red', 'xc:blue', 'xc:green', '-loop', '0', file('animated.gif')]);
  const progressive = await fromRaw(photoPixels(640, 480)).jpeg({ progressive: true, quality: 85 }).toBuffer();
  fs.writeFileSync(file('progressive.jpg'), progressive);
  fs.writeFileSync(file('many-scans.jpg'), jpegWithScans(progressive, 600));
  execFileSync('convert', [file('progressive.jpg'), '-interlace', 'Plane', file('magick-progressive.jpg')]);
}, 60_000);

afterAll(async () => {
  await service?.stop();
});

async function expectRefusedQuickly(input: string, mentions: RegExp): Promise<void> {
  for (const [endpoint, body] of Object.entries(ENDPOINTS)) {
    const started = Date.now();
    const res = await service.post(endpoint, body(input, `out/${path.basename(endpoint)}`));
    expect([res.status, res.body.code], `${endpoint} ${input}: ${res.body.error}`).toEqual([413, 'TOO_LARGE']);
    expect(res.body.error, endpoint).toMatch(mentions);
    // Nothing is decoded: the refusal costs the reading of a small file (the old path: a minute of CPU).
    expect(Date.now() - started, endpoint).toBeLessThan(10_000);
  }
  expect(fs.existsSync(file('out')) ? fs.readdirSync(file('out')) : []).toEqual([]);
  expect(leftoverTempFiles(service.dir)).toEqual([]);
}

async function expectServedWell(input: string): Promise<void> {
  for (const [endpoint, body] of Object.entries(ENDPOINTS)) {
    const res = await service.post(endpoint, body(input, `ok/${path.basename(input)}-${path.basename(endpoint)}`));
    expect(res.status, `${endpoint} ${input}: ${res.body.error}`).toBe(200);
  }
}

describe('GIF frames', () => {
  it('refuses a GIF whose first frame declares 65535×65535 inside a 16×16 screen', async () => {
    expect(fs.statSync(file('huge-first-frame.gif')).size).toBeLessThan(100);
    await expectRefusedQuickly('huge-first-frame.gif', /frame 1 is 65535×65535/);
  });

  it('checks every frame descriptor, not only the first', async () => {
    await expectRefusedQuickly('huge-later-frame.gif', /frame 3 is 20000×20000/);
  });

  it('refuses a GIF with more frames than the budget', async () => {
    await expectRefusedQuickly('many-frames.gif', /more than 10000 frames.*scans\/frames/);
  });

  it('still reads an animated GIF made by ImageMagick, and the service stays healthy', async () => {
    expect(
      execFileSync('identify', [file('animated.gif')])
        .toString()
        .trim()
        .split('\n'),
    ).toHaveLength(3);
    await expectServedWell('animated.gif');
    expect((await service.get('/api/health')).status).toBe(200);
  });
});

describe('JPEG scans', () => {
  it('refuses a progressive JPEG with 600 scans', async () => {
    expect(scanStarts(fs.readFileSync(file('many-scans.jpg')))).toHaveLength(600);
    await expectRefusedQuickly('many-scans.jpg', /more than 500 scans.*scans\/frames/);
  });

  it('still reads progressive JPEGs as encoders write them (libvips, ImageMagick), and the service stays healthy', async () => {
    for (const input of ['progressive.jpg', 'magick-progressive.jpg']) {
      expect(scanStarts(fs.readFileSync(file(input))).length).toBeGreaterThan(1);
      await expectServedWell(input);
    }
    expect((await service.get('/api/health')).status).toBe(200);
  });
});
