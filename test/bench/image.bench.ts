// Image rows: each endpoint through HTTP on a 12 MP camera-like JPEG, against sharp in-process
// (libvips, one thread, the bar the issue sets: ≤ 2×) and the ImageMagick `convert` CLI
// (one thread), in the same run.

import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { cameraPhoto } from '../helpers/images.js';
import { postOk, runCommand, type BenchCase, type BenchSuite } from './harness.js';

const SIDE = { width: 4000, height: 3000 };
const SMALL = { width: 1600, height: 1200 }; // a 40 % resize

interface Pipeline {
  name: string;
  route: '/api/image/resize' | '/api/image/convert' | '/api/image/compress';
  output: string;
  body: Record<string, unknown>;
  sharp: (input: string, output: string) => Promise<unknown>;
  magick: string[];
}

const PIPELINES: Pipeline[] = [
  {
    name: '12 MP JPEG → resize 40 % → WebP q85',
    route: '/api/image/resize',
    output: 'small.webp',
    body: { ...SMALL, quality: 85 },
    sharp: (input, output) => sharp(input).resize(SMALL.width, SMALL.height).webp({ quality: 85 }).toFile(output),
    magick: ['-resize', `${SMALL.width}x${SMALL.height}!`, '-quality', '85'],
  },
  {
    name: '12 MP JPEG → resize 40 % → JPEG q85',
    route: '/api/image/resize',
    output: 'small.jpg',
    body: { ...SMALL, quality: 85 },
    sharp: (input, output) => sharp(input).resize(SMALL.width, SMALL.height).jpeg({ quality: 85 }).toFile(output),
    magick: ['-resize', `${SMALL.width}x${SMALL.height}!`, '-quality', '85'],
  },
  {
    name: '12 MP JPEG → convert → WebP q85',
    route: '/api/image/convert',
    output: 'full.webp',
    body: { quality: 85 },
    sharp: (input, output) => sharp(input).webp({ quality: 85 }).toFile(output),
    magick: ['-quality', '85'],
  },
  {
    name: '12 MP JPEG → compress q70 → JPEG',
    route: '/api/image/compress',
    output: 'compressed.jpg',
    body: {},
    sharp: (input, output) => sharp(input).jpeg({ quality: 70, mozjpeg: true }).toFile(output),
    magick: ['-quality', '70'],
  },
];

export default (async ({ service, work }) => {
  sharp.concurrency(1);
  sharp.cache(false);
  const input = path.join(work, 'photo-12mp.jpg');
  await (await cameraPhoto(SIDE.width, SIDE.height)).jpeg({ quality: 92 }).toFile(input);
  const out = (tool: string, name: string) => path.join(work, `${tool}-${name}`);
  const cases: BenchCase[] = [];
  for (const p of PIPELINES) {
    const ours = () => postOk(service, p.route, { input, output: out('ours', p.output), ...p.body });
    cases.push(
      {
        group: 'image',
        name: p.name,
        iterations: 3,
        ours,
        native: { tool: 'sharp (1 thread)', run: async () => void (await p.sharp(input, out('sharp', p.output))) },
      },
      {
        group: 'image',
        name: p.name,
        iterations: 3,
        ours,
        native: {
          tool: 'ImageMagick convert (1 thread)',
          run: () => runCommand('convert', ['-limit', 'thread', '1', input, ...p.magick, out('magick', p.output)]),
        },
      },
    );
  }
  fs.mkdirSync(work, { recursive: true });
  return cases;
}) satisfies BenchSuite;
