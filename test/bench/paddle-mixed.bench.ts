// Chinese pages with English in them (test/helpers/ocr-page-set.ts MIXED_PAGES: English words
// inside Chinese sentences and whole English sentences; Hei, Ming, Noto Sans), one run, side by
// side: the error rate of the English words alone (a lost space makes a wrong word) and of the
// Han characters alone, for PP-OCR (`engine: paddle`), `auto`, tesseract.js (`engine:
// tesseract`) and the tesseract CLI (Debian's chi_sim+eng, one thread). The table is written
// into docs/ocr-measurements.md; no timed rows (paddle.bench.ts has them).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { removeCjkSpaces } from '../../core/cjk-text.js';
import { hanCharacterErrorRate, latinWordErrorRate } from '../helpers/ocr-accuracy.js';
import { expectedText, MIXED_PAGES, renderTestPage } from '../helpers/ocr-page-set.js';
import type { RunningService } from '../helpers/service.js';
import { replaceGenerated } from '../docs/generated.js';
import { runLine, type BenchSuite } from './harness.js';
import { DEBIAN_TESSDATA } from '../helpers/tools.js';

const LANGUAGE = 'chi_sim+eng';

interface Reading {
  text: string;
  ms: number;
  engine?: string;
}

async function readWithService(service: RunningService, image: string, engine: string): Promise<Reading> {
  const started = performance.now();
  const response = await service.post('/api/ocr', { input: image, language: LANGUAGE, engine });
  if (response.body.success !== true) throw new Error(`ocr ${engine} failed: ${JSON.stringify(response.body)}`);
  return { text: String(response.body.text), ms: performance.now() - started, engine: (response.body.data as { engine?: string }).engine };
}

function readWithCli(image: string): Reading {
  const started = performance.now();
  const args = ['OMP_THREAD_LIMIT=1', 'tesseract', image, '-', '--oem', '1', '--tessdata-dir', DEBIAN_TESSDATA, '-l', LANGUAGE];
  // The CLI spaces CJK characters like tesseract.js does; docwasm removes those spaces.
  const text = removeCjkSpaces(execFileSync('env', args, { stdio: ['ignore', 'pipe', 'ignore'] }).toString());
  return { text, ms: performance.now() - started };
}

const suite: BenchSuite = async ({ service, work }) => {
  const rows: string[] = [];
  for (const spec of MIXED_PAGES) {
    const image = path.join(work, `${spec.name.replace(/\W+/g, '-')}.png`);
    if (!fs.existsSync(image)) fs.writeFileSync(image, await renderTestPage(spec));
    const expected = expectedText(spec);
    const readings = [
      await readWithService(service, image, 'paddle'),
      await readWithService(service, image, 'auto'),
      await readWithService(service, image, 'tesseract'),
      readWithCli(image),
    ];
    const cell = (r: Reading) =>
      `${(100 * latinWordErrorRate(expected, r.text)).toFixed(2)} / ${(100 * hanCharacterErrorRate(expected, r.text)).toFixed(2)} (${(r.ms / 1000).toFixed(1)}${r.engine ? `, ${r.engine}` : ''})`;
    rows.push(`| ${spec.name} | ${readings.map(cell).join(' | ')} |`);
    process.stderr.write(`bench: paddle-mixed ${rows.at(-1)}\n`);
  }
  const header = '| page | PP-OCR | auto | tesseract.js | tesseract CLI |\n|---|---|---|---|---|';
  const table = `${header}\n${rows.join('\n')}`;
  process.stderr.write(`bench: English word error % / Han CER % (s), ${LANGUAGE}, one run:\n${table}\n`);
  replaceGenerated('docs/ocr-measurements.md', 'bench-paddle-mixed', `${runLine()}\n\n${table}`);
  return [];
};

export default suite;
