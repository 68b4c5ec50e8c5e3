// The fonts the WebAssembly office bundles, given to the installed LibreOffice too, so that the
// fidelity bench compares two offices setting text in the same font files rather than a Debian
// LibreOffice with no metric-compatible faces (no Liberation, Carlito, Caladea) against one that
// has them. The package keeps its fonts inside soffice.data, an Emscripten file package: one
// blob of every file laid end to end, listed with offsets in the glue's `loadPackage({files:[…]})`.
// The font files are cut out of it into a directory, and a fontconfig file that includes the
// system's configuration and adds that directory is written beside them; the installed office
// is then started with FONTCONFIG_FILE naming it (the service passes that variable through to
// the office and shows its directory inside the sandbox, office-spawn.ts). Nothing of the
// machine's own configuration changes.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findWasmOffice } from '../../core/wasm-office-package.js';

/** A package entry whose name is a font file: `{filename:"/instdir/…/Carlito-Bold.ttf",start:1,end:2`. */
const FONT_ENTRY = /\{filename:"([^"]+\.(?:ttf|otf|ttc|otc))",start:(\d+),end:(\d+)/gi;
const SYSTEM_FONTCONFIG = '/etc/fonts/fonts.conf';

export interface SharedFonts {
  /** The fontconfig file to pass as FONTCONFIG_FILE. */
  fontconfig: string;
  /** How many font files were taken from the package. */
  count: number;
}

/** Writes the WebAssembly office's fonts and a fontconfig file that adds them into `dir`. */
export function shareWasmOfficeFonts(dir: string): SharedFonts {
  const lookup = findWasmOffice();
  if (!lookup.found) throw new Error(lookup.reason);
  const glue = fs.readFileSync(lookup.files.glue, 'utf8');
  const entries = [...glue.matchAll(FONT_ENTRY)].map((m) => ({ name: path.basename(m[1] as string), start: Number(m[2]), end: Number(m[3]) }));
  if (entries.length === 0) throw new Error(`${lookup.files.glue} lists no font files in its loadPackage metadata`);
  const fontDir = path.join(dir, 'fonts');
  fs.mkdirSync(fontDir, { recursive: true });
  const data = fs.openSync(path.join(lookup.files.wasmDir, 'soffice.data'), 'r');
  try {
    for (const { name, start, end } of entries) {
      const bytes = Buffer.alloc(end - start);
      fs.readSync(data, bytes, 0, bytes.length, start);
      fs.writeFileSync(path.join(fontDir, name), bytes);
    }
  } finally {
    fs.closeSync(data);
  }
  // In `dir`, beside the fonts and their cache: the sandbox shows the office the directory of
  // FONTCONFIG_FILE. The cache dir comes first so that fontconfig writes this directory's cache
  // there, not into the machine's /var/cache/fontconfig; the system file keeps the machine's
  // fonts and its aliases (30-metric-aliases.conf: Calibri → Carlito, Arial → Liberation Sans, …).
  const fontconfig = path.join(dir, 'fonts.conf');
  fs.writeFileSync(
    fontconfig,
    [
      '<?xml version="1.0"?>',
      '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
      '<fontconfig>',
      `  <cachedir>${path.join(dir, 'fontconfig-cache')}</cachedir>`,
      `  <include ignore_missing="no">${SYSTEM_FONTCONFIG}</include>`,
      `  <dir>${fontDir}</dir>`,
      '</fontconfig>',
      '',
    ].join('\n'),
  );
  // Built once here, so that each office, which sees the directory read-only, need not scan it.
  execFileSync('fc-cache', [fontDir], { env: { ...process.env, FONTCONFIG_FILE: fontconfig }, stdio: 'ignore' });
  return { fontconfig, count: entries.length };
}
