// The fonts every office gets beyond its own: the CJK face shipped with docwasm (Noto Sans SC,
// so Chinese, Japanese and Korean text is drawn with a font that has it) and the font files
// found in the --font-dir directories (DOCWASM_FONT_DIRS).

import { readdirSync } from 'node:fs';
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
