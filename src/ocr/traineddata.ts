// Reads and repairs Tesseract `.traineddata` containers. The best_int chi_sim data's config
// names a sub-language (`tessedit_load_sublangs chi_sim_vert`); in tesseract.js that value
// arrives garbled, the next language of a `chi_sim+eng` set fails to load and English is
// silently read with the Chinese model. Dropping the line loads exactly the requested set.

import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

const inflate = promisify(gunzip);

/** Layout: int32 entry count, int64 offset per entry (-1 = absent), then the entries. Entry 0 is the config text. */
const CONFIG_ENTRY = 0;
/** TESSDATA_LSTM: the network docwasm runs (OEM LSTM_ONLY). */
const LSTM_ENTRY = 17;
const MAX_ENTRIES = 1000;
const SUBLANGS_LINE = /^tessedit_load_sublangs\b.*(?:\r?\n|$)/gm;

export function isGzip(data: Uint8Array): boolean {
  return data[0] === 0x1f && data[1] === 0x8b;
}

/** Off the event loop: the 4.0.0 chi_sim data inflates to ~50 MB. */
export async function inflateTraineddata(data: Uint8Array): Promise<Uint8Array> {
  return isGzip(data) ? inflate(data) : data;
}

/**
 * Why this data cannot serve LSTM recognition, or undefined when it can. Checked before
 * tesseract.js sees it: given a bad file it skips the language silently (`broken+eng` reads
 * as plain eng) or throws inside its message handler.
 */
export function traineddataProblem(traineddata: Uint8Array): string | undefined {
  const offsets = readOffsets(traineddata);
  if (!offsets) return 'not a traineddata file';
  if (offsets.some((offset) => offset >= traineddata.byteLength)) return 'truncated traineddata file';
  if ((offsets[LSTM_ENTRY] ?? -1) < 0) return 'no LSTM model (legacy-only data)';
  return undefined;
}

function readOffsets(traineddata: Uint8Array): number[] | undefined {
  if (traineddata.byteLength < 4) return undefined;
  const view = new DataView(traineddata.buffer, traineddata.byteOffset, traineddata.byteLength);
  const entries = view.getInt32(0, true);
  const tableEnd = 4 + entries * 8;
  if (entries <= CONFIG_ENTRY || entries > MAX_ENTRIES || tableEnd > traineddata.byteLength) return undefined;
  const offsets = Array.from({ length: entries }, (_, i) => Number(view.getBigInt64(4 + i * 8, true)));
  return offsets.every((offset) => offset === -1 || offset >= tableEnd) ? offsets : undefined;
}

/** The traineddata with `tessedit_load_sublangs` removed from its config, or undefined when it has none. */
export function withoutSubLanguages(traineddata: Uint8Array): Uint8Array | undefined {
  const offsets = readOffsets(traineddata);
  const start = offsets?.[CONFIG_ENTRY] ?? -1;
  if (!offsets || start < 0) return undefined;
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
