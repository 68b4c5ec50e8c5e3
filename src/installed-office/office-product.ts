// Whether a file the office left in its output dir is whole. LibreOffice writes its product in
// place, as it goes: when the watchdog stops an office mid-export (or the office dies), the file
// there is a beginning only (an 82-byte stub after 3 s and after 20 s of a long document's
// export, measured). Such a file is delivered only when its own bytes show that it ends where its
// format ends; a format that cannot show it is not delivered after a stop.

import fs from 'node:fs/promises';

const PDF_HEADER = Buffer.from('%PDF-');
const PDF_END = Buffer.from('%%EOF');
const ZIP_LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const ZIP_END_OF_DIRECTORY = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
/** A PDF's %%EOF sits at its very end, followed at most by line ends. */
const PDF_TAIL_BYTES = 1024;
/** The end-of-central-directory record (22 bytes) plus the longest ZIP comment (65,535 bytes). */
const ZIP_TAIL_BYTES = 22 + 65_535;

/** True when `file` is a complete PDF or ZIP package (OOXML, ODF); false otherwise. */
export async function isCompleteProduct(file: string): Promise<boolean> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const read = async (position: number, length: number) => {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - position)));
      await handle.read(buffer, 0, buffer.length, position);
      return buffer;
    };
    const head = await read(0, 5);
    if (head.subarray(0, PDF_HEADER.length).equals(PDF_HEADER)) return (await read(Math.max(0, size - PDF_TAIL_BYTES), PDF_TAIL_BYTES)).includes(PDF_END);
    if (head.subarray(0, ZIP_LOCAL_HEADER.length).equals(ZIP_LOCAL_HEADER))
      return (await read(Math.max(0, size - ZIP_TAIL_BYTES), ZIP_TAIL_BYTES)).includes(ZIP_END_OF_DIRECTORY);
    return false;
  } finally {
    await handle.close();
  }
}
