// Finds the installed OCR languages: the `@tesseract.js-data/<code>` packages (their
// 4.0.0_best_int data), the package's own `tessdata/` folder (English: tessdata_fast, which
// reads the English test pages as well as best_int at two thirds of its CPU — docs/ocr-engines.md),
// and `<code>.traineddata[.gz]` files in the configured tessdata dir; a later source wins over
// an earlier one for the same code. Nothing is ever written next to them.

import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT, packageDir } from '../version.js';

const DATA_SCOPE = '@tesseract.js-data';
const BUNDLED = ['eng', 'chi_sim'];
const PACKAGE_VARIANT = '4.0.0_best_int';
const DATA_FILE = /^([A-Za-z0-9_]+)\.traineddata(\.gz)?$/;
/** Data docwasm ships itself (English: tessdata_fast). */
const SHIPPED_DIR = path.join(PACKAGE_ROOT, 'tessdata');

/** Language code → absolute path of its traineddata (gzipped or not). */
export type LanguageFiles = ReadonlyMap<string, string>;

export function discoverLanguages(tessdataDir: string | undefined): LanguageFiles {
  const found = new Map<string, string>();
  for (const dir of packageDataDirs()) addDataFiles(found, dir);
  addDataFiles(found, SHIPPED_DIR);
  if (tessdataDir) addDataFiles(found, tessdataDir);
  return new Map([...found].sort(([a], [b]) => a.localeCompare(b)));
}

/** The best_int folder of every installed language package (the bundled ones and any sibling). */
function packageDataDirs(): string[] {
  const scopes = new Set<string>();
  for (const code of BUNDLED) {
    const dir = packageDir(`${DATA_SCOPE}/${code}`);
    if (dir) scopes.add(path.dirname(dir));
  }
  return [...scopes].flatMap((scope) => listDir(scope).map((name) => path.join(scope, name, PACKAGE_VARIANT)));
}

function addDataFiles(found: Map<string, string>, dir: string): void {
  // A plain file is preferred over its .gz twin: it loads without inflating.
  for (const name of listDir(dir).sort((a, b) => b.length - a.length)) {
    const code = DATA_FILE.exec(name)?.[1];
    const file = path.join(dir, name);
    if (code && isFile(file)) found.set(code, file);
  }
}

function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
