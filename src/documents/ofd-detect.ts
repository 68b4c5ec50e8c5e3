// An OFD is known by content: a ZIP whose root holds OFD.xml (GB/T 33190), whatever its name.
// Read from the ZIP's central directory only (containers.ts), so the check costs a few reads.

import { openInput } from '../files/paths.js';
import type { FileRef } from '../shared/file-ref.js';
import { readZipEntries } from './containers.js';

/** Is the input an OFD package? An input that cannot be opened answers with its code (FILE_NOT_FOUND, …). */
export async function isOfdFile(input: FileRef, shown = input.path): Promise<boolean> {
  const handle = await openInput(input, shown);
  try {
    const { size } = await handle.stat();
    const entries = await readZipEntries(handle, size);
    return entries?.some((entry) => entry.name.toLowerCase() === 'ofd.xml') ?? false;
  } catch {
    return false;
  } finally {
    await handle.close();
  }
}
