// The OCR engine's pure pieces: the chi_sim traineddata repair and CJK spacing.

import { gunzipSync } from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeCjkSpaces } from '../../src/shared/cjk-text.js';
import { withoutSubLanguages } from '../../src/ocr/traineddata.js';
import { ROOT } from '../helpers/service.js';

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
