// Writes a PDF file front to back as its objects become ready, so a document of 10,000 images
// holds one image in memory at a time (a PDF library keeps every stream until it saves).
// Objects are numbered as reserved; the cross-reference table is written at the end.

import type { FileHandle } from 'node:fs/promises';

const FLUSH_BYTES = 1 << 20;

export type PdfRef = number;

export class PdfFileWriter {
  private offsets: number[] = [];
  private position = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly file: FileHandle) {
    this.push(Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'));
  }

  /** A number for an object written later (a parent that lists children written first). */
  reserve(): PdfRef {
    this.offsets.push(-1);
    return this.offsets.length;
  }

  async object(body: string, ref: PdfRef = this.reserve()): Promise<PdfRef> {
    this.offsets[ref - 1] = this.position;
    this.push(Buffer.from(`${ref} 0 obj\n${body}\nendobj\n`, 'latin1'));
    await this.flushIfFull();
    return ref;
  }

  /** A stream object; `dictionary` is the dictionary's inside, without /Length. */
  async stream(dictionary: string, data: Uint8Array): Promise<PdfRef> {
    const ref = this.reserve();
    this.offsets[ref - 1] = this.position;
    this.push(Buffer.from(`${ref} 0 obj\n<< ${dictionary} /Length ${data.byteLength} >>\nstream\n`, 'latin1'));
    this.push(data);
    this.push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    await this.flushIfFull();
    return ref;
  }

  /** Writes the cross-reference table and trailer; every reserved object must be written by now. */
  async finish(root: PdfRef): Promise<void> {
    const missing = this.offsets.findIndex((offset) => offset < 0);
    if (missing >= 0) throw new Error(`PDF object ${missing + 1} was reserved but never written`);
    const xref = this.position;
    const entries = this.offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
    this.push(
      Buffer.from(
        `xref\n0 ${this.offsets.length + 1}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${this.offsets.length + 1} /Root ${root} 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
        'latin1',
      ),
    );
    await this.flush();
  }

  private push(chunk: Uint8Array): void {
    this.pending.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.pendingBytes += chunk.byteLength;
    this.position += chunk.byteLength;
  }

  private async flushIfFull(): Promise<void> {
    if (this.pendingBytes >= FLUSH_BYTES) await this.flush();
  }

  private async flush(): Promise<void> {
    const data = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    for (let written = 0; written < data.length;) {
      written += (await this.file.write(data, written, data.length - written)).bytesWritten;
    }
  }
}

export const ref = (id: PdfRef): string => `${id} 0 R`;
