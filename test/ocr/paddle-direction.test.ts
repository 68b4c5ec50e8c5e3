// PP-OCR's direction classifier looks only at lines read with little confidence (issue 32):
// an upright line never reaches it, a line printed upside down still reads. Lines laid out by
// pango-view, turned by ImageMagick; read in-process with the shipped models.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { removeAtEnd } from '../helpers/cleanup.js';
import { characterErrorRate } from '../helpers/ocr-accuracy.js';
import { loadModels, type PaddleModels } from '../../wasm/ocr/paddle/models.js';
import { pageText, readingOrder } from '../../wasm/ocr/paddle/page-text.js';
import { readPage, SYSTEM_DEFAULTS } from '../../wasm/ocr/paddle/system.js';

const LINE = '忽逢桃花林，夹岸数百步，中无杂树，芳草鲜美。';
const READ_TIMEOUT = 600_000;
let models: PaddleModels;
let dir: string;

beforeAll(async () => {
  dir = removeAtEnd(fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-direction-')));
  execFileSync('pango-view', ['-q', '--font=AR PL UMing CN 14', '--dpi=300', '--margin=60', `--output=${path.join(dir, 'upright.png')}`, `--text=${LINE}`]);
  execFileSync('convert', [path.join(dir, 'upright.png'), '-rotate', '180', path.join(dir, 'turned.png')]);
  models = await loadModels({ threads: 1 });
}, READ_TIMEOUT);

async function read(file: string) {
  const { data, info } = await sharp(path.join(dir, file)).flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  const { lines, timings } = await readPage(models, { width: info.width, height: info.height, channels: 1, data }, SYSTEM_DEFAULTS);
  return { text: pageText(readingOrder(lines)), timings };
}

describe('direction classifier', () => {
  it(
    'does not run on a line read upright with confidence',
    async () => {
      const { text, timings } = await read('upright.png');
      expect(characterErrorRate(LINE, text)).toBeLessThanOrEqual(0.05);
      expect([timings.classified, timings.turned]).toEqual([0, 0]);
    },
    READ_TIMEOUT,
  );

  it(
    'turns a line printed upside down and reads it',
    async () => {
      const { text, timings } = await read('turned.png');
      expect(characterErrorRate(LINE, text)).toBeLessThanOrEqual(0.05);
      expect(timings.classified).toBeGreaterThanOrEqual(1);
      // Detected as one box or a few (the turned line's punctuation can split it): every piece turned.
      expect(timings.turned).toBe(timings.classified);
    },
    READ_TIMEOUT,
  );
});
