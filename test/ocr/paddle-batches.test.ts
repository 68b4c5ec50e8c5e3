// PP-OCR reads lines in batches padded to the widest line of the batch, and its cost grows with
// the padded width: a paragraph's short last line is read in a batch of its own, not padded to
// the full lines' width (issue 46: the 2556 × 954 block's recognition −16 % of CPU). Lines laid
// out by pango-view, read in-process with the shipped models; each model call's input seen on
// the way in.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InferenceSession } from 'onnxruntime-web';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { removeAtEnd } from '../helpers/cleanup.js';
import { characterErrorRate } from '../helpers/ocr-accuracy.js';
import { loadModels, type PaddleModels } from '../../wasm/ocr/paddle/models.js';
import { pageText, readingOrder } from '../../wasm/ocr/paddle/page-text.js';
import { readPage, SYSTEM_DEFAULTS } from '../../wasm/ocr/paddle/system.js';

// No punctuation: a full-width comma's gap can split a line into two boxes.
const FULL = ['忽逢桃花林夹岸数百步中无杂树芳草鲜美', '林尽水源便得一山山有小口仿佛若有光', '土地平旷屋舍俨然有良田美池桑竹之属'];
const SHORT = '便舍船从口入';
const READ_TIMEOUT = 600_000;
let dir: string;
let models: PaddleModels;
/** Each recognition call's input: [lines, channels, height, width]. */
const calls: number[][] = [];

beforeAll(async () => {
  dir = removeAtEnd(fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-batches-')));
  const loaded = await loadModels({ threads: 1 });
  const recognition = new Proxy(loaded.recognition, {
    get(target, key) {
      if (key !== 'run') return Reflect.get(target, key, target) as unknown;
      return (feeds: InferenceSession.FeedsType) => {
        calls.push([...(Object.values(feeds)[0]?.dims ?? [])]);
        return target.run(feeds);
      };
    },
  });
  models = { ...loaded, recognition };
}, READ_TIMEOUT);

async function read(lines: string[]): Promise<string> {
  const file = path.join(dir, 'lines.png');
  execFileSync('pango-view', ['-q', '--font=AR PL UMing CN 14', '--dpi=300', '--margin=60', `--output=${file}`, `--text=${lines.join('\n')}`]);
  const { data, info } = await sharp(file).flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  calls.length = 0;
  const { lines: read } = await readPage(models, { width: info.width, height: info.height, channels: 1, data }, SYSTEM_DEFAULTS);
  return pageText(readingOrder(read));
}

describe('recognition batches', () => {
  it(
    "reads a paragraph's short last line in a batch of its own, not padded to the full lines",
    async () => {
      const text = await read([...FULL, SHORT]);
      expect(characterErrorRate([...FULL, SHORT].join(''), text.replace(/\s+/g, ''))).toBeLessThanOrEqual(0.05);
      expect(calls.map((dims) => dims[0])).toEqual([3, 1]);
      const [full, short] = calls.map((dims) => dims[3] as number);
      expect(short).toBeLessThan((full as number) / 2);
    },
    READ_TIMEOUT,
  );

  it(
    'keeps lines of nearly the same width in one batch',
    async () => {
      const text = await read(FULL);
      expect(characterErrorRate(FULL.join(''), text.replace(/\s+/g, ''))).toBeLessThanOrEqual(0.05);
      expect(calls.map((dims) => dims[0])).toEqual([3]);
    },
    READ_TIMEOUT,
  );
});
