// A rendered page's grey pixels cross threads without structured-clone copies (issue 32): the
// PDF worker moves them to the main thread, the main thread moves them on to the OCR worker.
// Runs the built pools (dist/: their workers are the built wasm/*/worker.js) on a one-page scan
// made by ImageMagick and img2pdf, and reads it with tesseract on Debian's English data.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Tinypool from 'tinypool';
import { describe, expect, it } from 'vitest';
import { removeAtEnd } from '../helpers/cleanup.js';
import { characterErrorRate } from '../helpers/ocr-accuracy.js';
import type { OcrTasks } from '../../wasm/ocr/worker.js';
import type { PdfTasks } from '../../wasm/pdf/worker.js';
import type { GreyImage } from '../../wasm/ocr/pnm.js';
import { DEBIAN_TESSDATA } from '../helpers/tools.js';

type EnginePoolModule = typeof import('../../src/jobs/engine-pool.js');
type TaskModule = typeof import('../../wasm/shared/task.js');
type EngineModule = typeof import('../../src/engines/tesseract-engine.js');
type StoreModule = typeof import('../../src/ocr/language-store.js');
type ErrorsModule = typeof import('../../core/errors.js');
const { EnginePool } = (await import(path.resolve('dist/src/jobs/engine-pool.js'))) as EnginePoolModule;
const { defineTask } = (await import(path.resolve('dist/wasm/shared/task.js'))) as TaskModule;
const { TesseractEngine } = (await import(path.resolve('dist/src/engines/tesseract-engine.js'))) as EngineModule;
const { LanguageStore } = (await import(path.resolve('dist/src/ocr/language-store.js'))) as StoreModule;
const { ApiError } = (await import(path.resolve('dist/core/errors.js'))) as ErrorsModule;

const TEXT = 'Pixels move between threads';

function scanPdf(dir: string): string {
  const png = path.join(dir, 'page.png');
  execFileSync('convert', [
    '-size',
    '1700x600',
    'xc:white',
    '-font',
    'DejaVu-Sans',
    '-pointsize',
    '64',
    '-fill',
    'black',
    '-annotate',
    '+100+300',
    TEXT,
    '-colorspace',
    'Gray',
    '-depth',
    '8',
    png,
  ]);
  const pdf = path.join(dir, 'scan.pdf');
  execFileSync('img2pdf', ['--imgsize', '300dpi', png, '-o', pdf]);
  return pdf;
}

describe('page pixels between threads', () => {
  it("marks a task output's buffers for tinypool to move, and leaves outputs without them as they are", async () => {
    const pixels = new Uint8Array(16);
    const task = defineTask(() => ({ pixels }), { transfer: (output) => [output.pixels.buffer as ArrayBuffer] });
    const moved = (await task(undefined)) as unknown as Record<symbol, unknown>;
    expect(moved[Tinypool.transferableSymbol]).toEqual([pixels.buffer]);
    expect(moved[Tinypool.valueSymbol]).toEqual({ ok: true, value: { pixels } });
    const failing = defineTask(
      (): { pixels: Uint8Array } => {
        throw new ApiError('INVALID_INPUT', 'no page');
      },
      { transfer: (output) => [output.pixels.buffer as ArrayBuffer] },
    );
    expect(Tinypool.transferableSymbol in ((await failing(undefined)) as object)).toBe(false);
  });

  it("renders a page in the PDF worker and reads it in the OCR worker, the main side's pixels detached once sent", async () => {
    const dir = removeAtEnd(fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-transfer-')));
    const pdf = scanPdf(dir);
    const pdfPool = new EnginePool<PdfTasks>({
      name: 'pdf',
      threads: 1,
      maxQueue: 1,
      timeoutMs: 300_000,
      idleTimeoutMs: 600_000,
      workerData: { engine: 'mupdf' },
    });
    const ocrPool = new EnginePool<OcrTasks>({
      name: 'ocr',
      threads: 1,
      maxQueue: 1,
      timeoutMs: 300_000,
      idleTimeoutMs: 600_000,
      workerData: { paddleThreads: 1 },
    });
    const ocr = new TesseractEngine(ocrPool, new LanguageStore(new Map([['eng', path.join(DEBIAN_TESSDATA, 'eng.traineddata')]])));
    try {
      const rendered = await pdfPool.job({}, (tasks) => tasks.renderForOcr({ input: { path: pdf }, page: 1, dpi: 300, skipText: false }));
      expect('image' in rendered).toBe(true);
      const page = (rendered as { image: GreyImage }).image;
      // 1700 × 600 pixels at 300 dpi rendered at 300 dpi, one byte each, the view its whole buffer.
      expect([page.width, page.height, page.pixels.byteLength, page.pixels.buffer.byteLength]).toEqual([1700, 600, 1700 * 600, 1700 * 600]);
      const read = await ocr.recognize({ page }, { codes: ['eng'], layout: false, engine: 'tesseract' }, {});
      expect(page.pixels.byteLength).toBe(0);
      expect(characterErrorRate(TEXT, read.text)).toBe(0);
    } finally {
      await Promise.all([pdfPool.close(), ocr.close()]);
    }
  }, 600_000);
});
