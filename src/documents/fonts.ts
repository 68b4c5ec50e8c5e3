// The fonts every office gets beyond its own: the CJK face shipped with docwasm (Noto Sans SC,
// so Chinese, Japanese and Korean text is drawn with a font that has it) and the font files
// found in the --font-dir directories (DOCWASM_FONT_DIRS).

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { bundledCjkFonts } from './profile.js';

const FONT_FILE = /\.(ttf|otf|ttc|otc)$/i;

/** The shipped CJK faces, then every font file directly inside each of `dirs` (in name order). */
export function officeFonts(dirs: readonly string[]): string[] {
  const extra = dirs.flatMap((dir) => {
    const names = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isFile() && FONT_FILE.test(entry.name));
    return names.map((entry) => path.join(dir, entry.name)).sort();
  });
  return [...bundledCjkFonts(), ...extra];
}

/**
 * The family names a font file declares (its `name` table: family, typographic family; every
 * face of a collection), so the office's replacement table can leave alone a font it was given.
 * Reads only the table directory and the name table; [] for what is not a readable font.
 */
export function fontFamilies(file: string): string[] {
  try {
    const bytes = readFileSync(file);
    const faces = bytes.toString('latin1', 0, 4) === 'ttcf' ? collectionFaces(bytes) : [0];
    return [...new Set(faces.flatMap((offset) => familiesOfFace(bytes, offset)))];
  } catch {
    return [];
  }
}

/** Offsets of a TrueType/OpenType collection's faces. */
function collectionFaces(bytes: Buffer): number[] {
  const count = Math.min(bytes.readUInt32BE(8), 64);
  return Array.from({ length: count }, (_, i) => bytes.readUInt32BE(12 + 4 * i));
}

const FAMILY_NAME_IDS = new Set([1, 16]);

function familiesOfFace(bytes: Buffer, face: number): string[] {
  const tables = Math.min(bytes.readUInt16BE(face + 4), 256);
  for (let i = 0; i < tables; i++) {
    const record = face + 12 + 16 * i;
    if (bytes.toString('latin1', record, record + 4) === 'name') return namesIn(bytes, bytes.readUInt32BE(record + 8));
  }
  return [];
}

/** Family names from a name table: Windows records (UTF-16BE) and Macintosh Roman ones (ASCII). */
function namesIn(bytes: Buffer, table: number): string[] {
  const count = bytes.readUInt16BE(table + 2);
  const strings = table + bytes.readUInt16BE(table + 4);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const record = table + 6 + 12 * i;
    const [platform, nameId, length, offset] = [
      bytes.readUInt16BE(record),
      bytes.readUInt16BE(record + 6),
      bytes.readUInt16BE(record + 8),
      bytes.readUInt16BE(record + 10),
    ];
    if (!FAMILY_NAME_IDS.has(nameId)) continue;
    const raw = bytes.subarray(strings + offset, strings + offset + length);
    if (platform === 3 || platform === 0) names.push(raw.swap16().toString('utf16le'));
    else if (platform === 1) names.push(raw.toString('latin1'));
  }
  return names.filter((name) => name.length > 0);
}
