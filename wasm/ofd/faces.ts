// Which shipped face draws the characters of a font the OFD only names (CONTRACT v0.5): Arial and
// Helvetica → Liberation Sans, Times → Liberation Serif, Courier → Liberation Mono, each
// metric-compatible with the font it stands for, so glyphs fill the advances the OFD gives them.
// Chinese faces (宋体, 黑体, 楷体, 仿宋, 微软雅黑 …) give Latin letters and digits half-width cells:
// Liberation Mono, each glyph fitted to its cell, reads as they do; their Chinese characters are
// drawn with the CJK face. Other Latin names fall back to Liberation Sans. The files are in
// fonts/liberation/ (SIL Open Font License 1.1).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type LatinFace = 'sans' | 'serif' | 'mono';

const FILES: Readonly<Record<LatinFace, string>> = {
  sans: 'LiberationSans-Regular.ttf',
  serif: 'LiberationSerif-Regular.ttf',
  mono: 'LiberationMono-Regular.ttf',
};

/** Names whose metrics a Liberation face shares (and the Liberation names and ChromeOS faces themselves). */
const METRIC_FACES: readonly [RegExp, LatinFace][] = [
  [/courier|liberation ?mono|cousine|nimbus ?mono/i, 'mono'],
  [/times|liberation ?serif|tinos|nimbus ?roman/i, 'serif'],
  [/arial|helvetica|liberation ?sans|arimo|nimbus ?sans/i, 'sans'],
];

/** A Chinese, Japanese or Korean face's name: written in CJK characters or one of their Latin names. */
const CJK_NAME =
  /[\u2e80-\u9fff\uf900-\ufaff]|sim(sun|hei|kai|fang)|song|kai(ti)?|fang ?song|hei(ti)?|yahei|msyh|ming|gothic|batang|gulim|dotum|mincho|noto ?(sans|serif) ?(sc|tc|cjk|jp|kr)/i;

/** The face that draws a named font's Latin characters, and whether it shares the font's metrics. */
export function latinFaceFor(fontName: string): { face: LatinFace; metric: boolean } {
  const metric = METRIC_FACES.find(([pattern]) => pattern.test(fontName));
  if (metric) return { face: metric[1], metric: true };
  return { face: CJK_NAME.test(fontName) ? 'mono' : 'sans', metric: false };
}

let folder: string | undefined;

/** The face's TrueType bytes, from fonts/liberation/ of the package (found from this file: src/ and dist/ alike). */
export function latinFaceFile(face: LatinFace): Uint8Array {
  folder ??= findFolder();
  return fs.readFileSync(path.join(folder, FILES[face]));
}

function findFolder(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'fonts', 'liberation');
    if (fs.existsSync(path.join(candidate, FILES.sans))) return candidate;
    if (path.dirname(dir) === dir) throw new Error('fonts/liberation is missing from the package');
  }
}
