// What an input is, judged once (MarkItDown's StreamInfo): what its name says and what its bytes
// say — a sniffed type, and for a ZIP the format its parts make it, by the table of
// core/input-formats.ts. Convert's dispatch (registry.ts), the reader
// (src/reading/read-document.ts) and the watcher ask this; nothing below them judges the kind
// again (the engine workers are told it).

import type { FileRef } from '../../core/file-ref.js';
import { formatOfExtension, formatOfSniffed, type InputFormat } from '../../core/input-formats.js';
import { sniffType, type SniffedType } from '../../core/sniff.js';
import { packageFormatOf } from '../document-checks/content-check.js';
import { extensionOf, readInputHead, resolveInputPath, type PathPolicy } from '../files/paths.js';

export interface StreamInfo {
  /** The input as the user named it. */
  shownName: string;
  /** Its extension, lower case, without the dot. */
  extension: string;
  /** The format its name says. */
  named: InputFormat | undefined;
  /** The type its first bytes say. */
  sniffed: SniffedType | undefined;
  /**
   * The format its bytes say: a sniffed one (PDF, images, RTF) or a ZIP package's; undefined for
   * an OLE container, text, or a ZIP of no kind docwasm takes.
   */
  content: InputFormat | undefined;
}

/** A request's input: judged by its name alone when it cannot be opened, with the reason kept. */
export interface InputInfo extends StreamInfo {
  /** Why the file could not be looked at (FILE_NOT_FOUND, PATH_NOT_ALLOWED, …). */
  openError?: unknown;
}

/** The stream info of a checked input: its head sniffed, a ZIP's central directory read (nothing inflated). */
export async function detectFormat(input: FileRef, shownName: string): Promise<StreamInfo> {
  const sniffed = sniffType(await readInputHead(input, 1024, shownName));
  const content = sniffed === 'zip' ? await packageFormatOf(input, shownName) : formatOfSniffed(sniffed);
  return { ...namedInfo(shownName), sniffed, content };
}

/** The stream info of an input as the user named it; one that cannot be opened keeps its error for the converter that needs its bytes. */
export async function inputInfoOf(paths: PathPolicy, input: string): Promise<InputInfo> {
  try {
    return await detectFormat(await resolveInputPath(paths, input), input);
  } catch (openError) {
    return { ...namedInfo(input), sniffed: undefined, content: undefined, openError };
  }
}

function namedInfo(shownName: string): Pick<StreamInfo, 'shownName' | 'extension' | 'named'> {
  const extension = extensionOf(shownName);
  return { shownName, extension, named: formatOfExtension(extension) };
}
