import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOleContainer, readZipEntries, readZipEntry } from '../../src/document-checks/containers.js';
import { DOCUMENT_FIXTURES, oleContainer } from '../helpers/documents.js';
import { tempDir } from '../helpers/service.js';
import { makeZip } from '../helpers/zip.js';

async function withFile<T>(data: Buffer | string, read: (handle: fs.FileHandle, size: number) => Promise<T>): Promise<T> {
  const file = typeof data === 'string' ? data : path.join(tempDir(), 'file.bin');
  if (typeof data !== 'string') await fs.writeFile(file, data);
  const handle = await fs.open(file, 'r');
  try {
    return await read(handle, (await handle.stat()).size);
  } finally {
    await handle.close();
  }
}

describe('readZipEntries / readZipEntry', () => {
  it('lists entry names in order and reads stored and deflated entries back', async () => {
    const zip = makeZip([
      { name: 'mimetype', data: 'application/vnd.oasis.opendocument.text', deflate: false },
      { name: 'content.xml', data: '<doc>你好</doc>' },
    ]);
    await withFile(zip, async (handle, size) => {
      const entries = (await readZipEntries(handle, size)) ?? [];
      expect(entries.map((e) => [e.name, e.method])).toEqual([
        ['mimetype', 0],
        ['content.xml', 8],
      ]);
      expect((await readZipEntry(handle, entries[0] as (typeof entries)[number]))?.toString()).toBe('application/vnd.oasis.opendocument.text');
      expect((await readZipEntry(handle, entries[1] as (typeof entries)[number]))?.toString()).toBe('<doc>你好</doc>');
    });
  });

  it('reads the parts of a real OOXML document', async () => {
    const names = await withFile(path.join(DOCUMENT_FIXTURES, 'text-docx.docx'), async (handle, size) =>
      (await readZipEntries(handle, size))?.map((e) => e.name),
    );
    expect(names).toEqual(expect.arrayContaining(['[Content_Types].xml', 'word/document.xml']));
  });

  it('answers undefined for a truncated archive or a file that is no ZIP', async () => {
    const zip = makeZip([{ name: 'a.txt', data: 'a' }]);
    expect(await withFile(zip.subarray(0, zip.length - 10), readZipEntries)).toBeUndefined();
    expect(await withFile(Buffer.from('not a zip at all'), readZipEntries)).toBeUndefined();
  });

  it('does not read an entry larger than asked', async () => {
    const zip = makeZip([{ name: 'big.bin', data: Buffer.alloc(4096, 1), deflate: false }]);
    await withFile(zip, async (handle, size) => {
      const [entry] = (await readZipEntries(handle, size)) ?? [];
      expect(await readZipEntry(handle, entry as NonNullable<typeof entry>, 1024)).toBeUndefined();
    });
  });
});

describe('readOleContainer', () => {
  it('lists the streams of each legacy Office fixture', async () => {
    const streamsOf = (name: string) =>
      withFile(path.join(DOCUMENT_FIXTURES, name), async (handle, size) => (await readOleContainer(handle, size))?.streams.map((s) => s.name));
    expect(await streamsOf('text-doc.doc')).toEqual(expect.arrayContaining(['Root Entry', 'WordDocument']));
    expect(await streamsOf('sheet-xls.xls')).toEqual(expect.arrayContaining(['Workbook']));
    expect(await streamsOf('slides-ppt.ppt')).toEqual(expect.arrayContaining(['PowerPoint Document']));
  });

  it('reads the head of a stream (the Word FIB magic 0xA5EC)', async () => {
    const head = await withFile(path.join(DOCUMENT_FIXTURES, 'text-doc.doc'), async (handle, size) => {
      const container = await readOleContainer(handle, size);
      const word = container?.streams.find((s) => s.name === 'WordDocument');
      return word && container ? container.readStreamHead(word, 2) : undefined;
    });
    expect(head?.readUInt16LE(0)).toBe(0xa5ec);
  });

  it('lists the streams of a hand-made container (an encrypted OOXML package)', async () => {
    const names = await withFile(oleContainer(['EncryptionInfo', 'EncryptedPackage']), async (handle, size) =>
      (await readOleContainer(handle, size))?.streams.map((s) => s.name),
    );
    expect(names).toEqual(['Root Entry', 'EncryptionInfo', 'EncryptedPackage']);
  });

  it('answers undefined for a short file or an impossible sector size', async () => {
    expect(await withFile(Buffer.alloc(100), readOleContainer)).toBeUndefined();
    const damaged = oleContainer(['x']);
    damaged.writeUInt16LE(5, 0x1e);
    expect(await withFile(damaged, readOleContainer)).toBeUndefined();
  });
});
