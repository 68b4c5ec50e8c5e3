// Where a document waits for its office: a fresh directory with a random, unguessable name
// below the slot's documents dir, holding a copy of the input under the input's own (sanitized)
// base name and an empty out/ for the product. The name matters because LibreOffice shows it:
// a CSV's sheet is named after its file, a sheet's page header prints that name, fields print
// the file name — so it is the user's name, never a name of ours (issue 19: sheets named `j0`).
// Inside an OS sandbox the documents dir is mounted at a neutral path (see sandbox-view.ts), so
// a field printing the document's full path shows `/documents/<random>/<name>`, nothing of ours.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { openInput } from '../files/paths.js';
import type { FileRef } from '../../core/file-ref.js';
import { documentsDirInOffice } from '../sandbox/sandbox.js';
import { documentsDir } from '../sandbox/sandbox-view.js';

export interface StagedDocument {
  /** The document's directory on the host (removed after the conversion). */
  hostDir: string;
  hostOutDir: string;
  /** The same input and output dir as the office sees them. */
  officeInput: string;
  officeOutDir: string;
}

/** Longest stem kept (code points): far below any file system's name limit in UTF-8. */
const MAX_STEM = 80;
const FALLBACK_STEM = 'document';

/**
 * Copies `input` into a fresh directory of `slotDir`'s documents dir, as `<stem>.<extension>`.
 * The copy is read from the input opened as the file that was checked (src/files/paths.ts
 * openInput): a FIFO or a link renamed onto its name since is refused, with nothing staged.
 */
export async function stageDocument(
  slotDir: string,
  { input, extension, shownName }: { input: FileRef; extension: string; shownName: string },
): Promise<StagedDocument> {
  const source = await openInput(input, shownName);
  const id = randomBytes(16).toString('hex');
  const hostDir = path.join(documentsDir(slotDir), id);
  const officeDir = path.posix.join(documentsDirInOffice(slotDir), id);
  const name = `${stagedStem(input.path)}.${extension}`;
  try {
    await fs.mkdir(path.join(hostDir, 'out'), { recursive: true });
    // A copy, not a link: a sandboxed office cannot follow a link out of its view, and a hard link would let it write the original.
    const copy = await fs.open(path.join(hostDir, name), 'wx');
    await pipeline(source.createReadStream({ autoClose: false }), copy.createWriteStream());
  } catch (err) {
    await fs.rm(hostDir, { recursive: true, force: true });
    throw err;
  } finally {
    await source.close();
  }
  return { hostDir, hostOutDir: path.join(hostDir, 'out'), officeInput: path.join(officeDir, name), officeOutDir: path.join(officeDir, 'out') };
}

/**
 * The input's base name without its extension, reduced to letters, digits and a few safe marks
 * (LibreOffice reads `#`, `%` and `?` in a path as URL syntax; a leading `-` or `.` would read
 * as an option or hide the file).
 */
export function stagedStem(input: string): string {
  const stem = path.parse(path.basename(input)).name;
  const safe = stem
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}\p{M} ._()+,=@-]/gu, '_')
    .replace(/^[\s.-]+/u, '')
    .trimEnd();
  const short = [...safe].slice(0, MAX_STEM).join('');
  return short === '' ? FALLBACK_STEM : short;
}
