// File I/O inside engine workers: inputs are read and outputs written here so that large
// buffers never cross the thread boundary. Outputs go to the temp paths src/files staged.

import fs from 'node:fs';
import { ApiError } from '../../src/errors.js';

export function readInputFile(filePath: string): Uint8Array {
  try {
    return fs.readFileSync(filePath);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR') throw new ApiError('FILE_NOT_FOUND', `Input file not found: ${filePath}`);
    throw new ApiError('INVALID_INPUT', `Cannot read input ${filePath} (${code ?? 'read error'})`);
  }
}

export function writeOutputFile(tempPath: string, data: Uint8Array | string): void {
  try {
    fs.writeFileSync(tempPath, data);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'write error';
    throw new ApiError('OUTPUT_NOT_WRITABLE', `Cannot write output (${code})`);
  }
}
