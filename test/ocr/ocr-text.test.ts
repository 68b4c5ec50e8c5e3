// The OCR engine's pure pieces: which traineddata serves each language, the chi_sim
// traineddata repair and CJK spacing.

import { spawnSync } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeCjkSpaces } from '../../core/cjk-text.js';
import { discoverLanguages } from '../../src/ocr/languages.js';
import { withoutSubLanguages } from '../../src/ocr/traineddata.js';
import { ROOT, tempDir } from '../helpers/service.js';

const data = (code: string) => gunzipSync(fs.readFileSync(path.join(ROOT, `node_modules/@tesseract.js-data/${code}/4.0.0_best_int/${code}.traineddata.gz`)));

function entries(traineddata: Uint8Array): Uint8Array[] {
  const view = new DataView(traineddata.buffer, traineddata.byteOffset, traineddata.byteLength);
  const count = view.getInt32(0, true);
  const offsets = Array.from({ length: count }, (_, i) => Number(view.getBigInt64(4 + i * 8, true)));
  return offsets.map((start) => {
    if (start < 0) return new Uint8Array();
    const end = Math.min(traineddata.byteLength, ...offsets.filter((o) => o > start));
    return traineddata.subarray(start, end);
  });
}

describe('installed languages', () => {
  const shippedEng = path.join(ROOT, 'tessdata/eng.traineddata.gz');

  it('reads English with the shipped tessdata_fast model, Chinese with the best_int package; --tessdata replaces either', () => {
    const files = discoverLanguages(undefined);
    expect(files.get('eng')).toBe(shippedEng);
    expect(files.get('chi_sim')).toMatch(/@tesseract\.js-data[\\/]chi_sim[\\/]4\.0\.0_best_int[\\/]chi_sim\.traineddata\.gz$/);
    const dir = tempDir('docwasm-tessdata-');
    try {
      fs.writeFileSync(path.join(dir, 'eng.traineddata'), gunzipSync(fs.readFileSync(shippedEng)));
      expect(discoverLanguages(dir).get('eng')).toBe(path.join(dir, 'eng.traineddata'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is tessdata_fast's LSTM-only English model, as Tesseract's own combine_tessdata reads it", () => {
    const dir = tempDir('docwasm-tessdata-');
    try {
      const file = path.join(dir, 'eng.traineddata');
      fs.writeFileSync(file, gunzipSync(fs.readFileSync(shippedEng)));
      // It prints the listing on stderr.
      const run = spawnSync('combine_tessdata', ['-d', file], { encoding: 'utf8' });
      expect(run.status).toBe(0);
      const listing = run.stdout + run.stderr;
      const components = [...listing.matchAll(/^(\d+):([\w-]+):size=(\d+)/gm)].map(([, index, name, size]) => ({
        index: Number(index),
        name,
        size: Number(size),
      }));
      // No legacy components (0–16); the network is the fast one (best_int's is 1,487,596 bytes).
      expect(components.filter(({ index }) => index < 17)).toEqual([]);
      expect(components.find(({ name }) => name === 'lstm')?.size).toBe(401_636);
      expect(components.map(({ name }) => name)).toEqual(expect.arrayContaining(['lstm-word-dawg', 'lstm-unicharset', 'lstm-recoder']));
      expect(listing).toMatch(/Version:.*:eng:/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('chi_sim traineddata repair', () => {
  it('drops only the tessedit_load_sublangs line and keeps every other component byte for byte', () => {
    const original = data('chi_sim');
    const repaired = withoutSubLanguages(original);
    expect(repaired).toBeDefined();
    const [config, ...rest] = entries(repaired as Uint8Array);
    const [originalConfig, ...originalRest] = entries(original);
    const text = Buffer.from(config as Uint8Array).toString('latin1');
    expect(Buffer.from(originalConfig as Uint8Array).toString('latin1')).toContain('tessedit_load_sublangs chi_sim_vert');
    expect(text).not.toContain('tessedit_load_sublangs');
    expect(text).toContain('textord_use_cjk_fp_model T');
    rest.forEach((entry, i) => expect(Buffer.compare(entry, originalRest[i] as Uint8Array)).toBe(0));
  });

  it('leaves data without sub-languages alone', () => {
    expect(withoutSubLanguages(data('eng'))).toBeUndefined();
  });
});

describe('CJK spacing', () => {
  it('removes spaces between CJK characters and punctuation only', () => {
    expect(removeCjkSpaces('今天 天 气 很 好 ， 我 们\n在 公园 Hello 世界 ，OCR 测试 mixed 2024。 한국 어')).toBe(
      '今天天气很好，我们\n在公园 Hello 世界，OCR 测试 mixed 2024。 한국 어',
    );
  });
});
