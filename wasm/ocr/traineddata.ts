// Reads and repairs Tesseract `.traineddata` containers. The best_int chi_sim data's config
// names a sub-language (`tessedit_load_sublangs chi_sim_vert`); in tesseract.js that value
// arrives garbled, the next language of a `chi_sim+eng` set fails to load and English is
// silently read with the Chinese model. Dropping the line loads exactly the requested set.

import { gunzipSync } from 'node:zlib';

/** Layout: int32 entry count, int64 offset per entry (-1 = absent), then the entries. Entry 0 is the config text. */
const CONFIG_ENTRY = 0;
const SUBLANGS_LINE = /^tessedit_load_sublangs\b.*(?:\r?\n|$)/gm;

export function isGzip(data: Uint8Array): boolean {
  return data[0] === 0x1f && data[1] === 0x8b;
}

export function inflateTraineddata(data: Uint8Array): Uint8Array {
  return isGzip(data) ? gunzipSync(data) : data;
}

/** The traineddata with `tessedit_load_sublangs` removed from its config, or undefined when it has none. */
export function withoutSubLanguages(traineddata: Uint8Array): Uint8Array | undefined {
  const view = new DataView(traineddata.buffer, traineddata.byteOffset, traineddata.byteLength);
  if (traineddata.byteLength < 4) return undefined;
  const entries = view.getInt32(0, true);
  const tableEnd = 4 + entries * 8;
  if (entries <= CONFIG_ENTRY || entries > 1000 || tableEnd > traineddata.byteLength) return undefined;
  const offsets = Array.from({ length: entries }, (_, i) => Number(view.getBigInt64(4 + i * 8, true)));
  const start = offsets[CONFIG_ENTRY] as number;
  if (start < tableEnd) return undefined;
  const end = Math.min(traineddata.byteLength, ...offsets.filter((o) => o > start));
  const config = Buffer.from(traineddata.subarray(start, end)).toString('latin1');
  const fixed = config.replace(SUBLANGS_LINE, '');
  if (fixed === config) return undefined;

  const newConfig = Buffer.from(fixed, 'latin1');
  const shift = newConfig.byteLength - (end - start);
  const out = new Uint8Array(traineddata.byteLength + shift);
  out.set(traineddata.subarray(0, start));
  out.set(newConfig, start);
  out.set(traineddata.subarray(end), start + newConfig.byteLength);
  const outView = new DataView(out.buffer);
  offsets.forEach((offset, i) => {
    if (offset > start) outView.setBigInt64(4 + i * 8, BigInt(offset + shift), true);
  });
  return out;
}
