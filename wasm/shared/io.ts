// File I/O inside engine workers: inputs are read and outputs written here so that files never
// cross the thread boundary (the one large buffer that does is a PDF page rendered in grey for
// OCR: PDF worker → main thread → OCR worker). Each file is opened as the one the main thread
// checked (core/file-ref.ts); outputs go to the temp files src/files/staging.ts made.

import fs from 'node:fs';
import { fileError } from '../../core/file-errors.js';
import { openChecked, type FileRef } from '../../core/file-ref.js';

export function readInputFile(ref: FileRef): Uint8Array {
  let fd: number | undefined;
  try {
    fd = openChecked(ref, fs.constants.O_RDONLY);
    return fs.readFileSync(fd);
  } catch (err) {
    throw fileError(err, { role: 'input', shown: ref.path, checked: ref.identity !== undefined });
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** `data` given as chunks is written chunk after chunk, each taken as it is written. */
export function writeOutputFile(ref: FileRef, data: Uint8Array | string | Iterable<Uint8Array>): void {
  let fd: number | undefined;
  try {
    fd = openChecked(ref, fs.constants.O_WRONLY | fs.constants.O_TRUNC);
    for (const chunk of typeof data === 'string' || data instanceof Uint8Array ? [data] : data) fs.writeFileSync(fd, chunk);
  } catch (err) {
    // Not a file-system error: one of the chunks could not be made.
    if (err instanceof RangeError) throw err;
    // The path is a temp file's (src/files/staging.ts): its name would mean nothing to the user.
    throw fileError(err, { role: 'output', checked: ref.identity !== undefined });
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
