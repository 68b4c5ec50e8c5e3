// Hostile inputs, generated from valid files with a seeded generator (the same seed gives the
// same corpus): bit flips, truncations, swapped headers, 0-byte files, huge declared dimensions,
// decompression and zip bombs, budget bombs (GIF frames, JPEG scans, PDF content streams that
// inflate to hundreds of MB), and PDFs whose objects refer to themselves in cycles.

import zlib from 'node:zlib';
import sharp from 'sharp';
import { makeImagePdf, makePdf, serializePdf } from '../helpers/make-pdf.js';
import { toBmp } from '../helpers/ocr-images.js';
import { makeZip } from '../helpers/zip.js';
import { gifWithFrames, jpegWithScans } from '../helpers/image-bombs.js';
import { contentBombPdf } from '../helpers/pdf-bombs.js';
import { makeDocx } from './docx.js';
import {
  climbingPath,
  docxField,
  docxZipBomb,
  odpBitmapFill,
  odsCellBackground,
  odtEmbeddedSvgLinkingOut,
  odtFileNameFields,
  odtPageBackground,
  odtParagraphBackground,
  odtParagraphBackgrounds,
  otherProviderUrls,
  rtfField,
  stagedNeighbourGuesses,
  zipPartUrl,
} from '../helpers/hostile-documents.js';

export type Kind = 'pdf' | 'image' | 'document';

export interface HostileFile {
  name: string;
  kind: Kind;
  /** Which mutation made it (for the figures). */
  mutation: string;
  data: Buffer;
}

interface Seed {
  ext: string;
  kind: Kind;
  data: Buffer;
}

/** mulberry32: small, fast, seedable. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function seeds(): Promise<Seed[]> {
  const photo = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#3366aa', noise: { type: 'gaussian', mean: 100, sigma: 30 } } })
    .png()
    .toBuffer();
  return [
    { ext: 'pdf', kind: 'pdf', data: makePdf({ pages: ['One', 'Two', 'Three'], bookmarks: [{ title: 'Start', page: 0 }] }) },
    { ext: 'pdf', kind: 'pdf', data: makeImagePdf(1, 48) },
    { ext: 'png', kind: 'image', data: photo },
    { ext: 'jpg', kind: 'image', data: await sharp(photo).jpeg().toBuffer() },
    { ext: 'webp', kind: 'image', data: await sharp(photo).webp().toBuffer() },
    { ext: 'gif', kind: 'image', data: await sharp(photo).gif().toBuffer() },
    { ext: 'tiff', kind: 'image', data: await sharp(photo).tiff().toBuffer() },
    { ext: 'bmp', kind: 'image', data: await toBmp(photo) },
    { ext: 'docx', kind: 'document', data: makeDocx(['Hostile input seed', 'Second paragraph']) },
    { ext: 'csv', kind: 'document', data: Buffer.from('a,b,c\n1,2,3\n"x, y",4,5\n') },
  ];
}

function crc(type: string, data: Buffer): number {
  return zlib.crc32(data, zlib.crc32(Buffer.from(type, 'latin1')));
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc(type, data), 0);
  return Buffer.concat([head, data, tail]);
}

/** A PNG that declares `width`×`height` (valid CRCs) with `idat` as its pixel data. */
export function pngDeclaring(width: number, height: number, idat: Buffer, colourType = 2): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8);
  ihdr.writeUInt8(colourType, 9);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** JPEG with its SOF frame size rewritten. */
function jpegDeclaring(jpeg: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(jpeg);
  for (let i = 2; i < out.length - 9; i++) {
    if (out[i] === 0xff && (out[i + 1] === 0xc0 || out[i + 1] === 0xc2)) {
      out.writeUInt16BE(height, i + 5);
      out.writeUInt16BE(width, i + 7);
      break;
    }
  }
  return out;
}

function gifDeclaring(gif: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(gif);
  out.writeUInt16LE(width, 6);
  out.writeUInt16LE(height, 8);
  return out;
}

function bmpDeclaring(bmp: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(bmp);
  out.writeInt32LE(width, 18);
  out.writeInt32LE(height, 22);
  return out;
}

/** PDFs whose object graph loops: page tree, parents, stream lengths, outlines, xref chains. */
function cyclicPdfs(): Buffer[] {
  const page = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>';
  return [
    serializePdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [2 0 R] /Count 1 >>']),
    serializePdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>']),
    serializePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R 3 0 R 3 0 R] /Count 3 >>',
      '<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] >>',
    ]),
    serializePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
      '<< /Length 4 0 R >>\nstream\nBT ET\nendstream',
    ]),
    serializePdf([
      '<< /Type /Catalog /Pages 2 0 R /Outlines 4 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      page,
      '<< /Type /Outlines /First 5 0 R /Last 5 0 R /Count 1 >>',
      '<< /Title (Loop) /Parent 4 0 R /Next 5 0 R /Prev 5 0 R /First 5 0 R /Dest [3 0 R /Fit] >>',
    ]),
    serializePdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', page], ' /Prev XREF'),
    serializePdf(['<< /Type /Catalog /Pages 1 0 R >>']),
    serializePdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1000000000 >>', page]),
    serializePdf(['1 0 R']),
  ];
}

/** Zip bombs in office clothing: one huge entry, and very many entries. */
function zipBombs(): { ext: string; data: Buffer }[] {
  const huge = Buffer.alloc(200 * 1024 * 1024, '<w:p/>');
  const document = Buffer.concat([
    Buffer.from('<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'),
    huge,
    Buffer.from('</w:body></w:document>'),
  ]);
  const many = Array.from({ length: 20_000 }, (_, i) => ({ name: `word/media/f${i}.xml`, data: '' }));
  return [
    { ext: 'docx', data: makeDocx([], document) },
    { ext: 'docx', data: makeZip([{ name: '[Content_Types].xml', data: '<Types/>' }, ...many]) },
    {
      ext: 'xlsx',
      data: makeZip([
        { name: '[Content_Types].xml', data: '<Types/>' },
        { name: 'xl/workbook.xml', data: huge },
      ]),
    },
    // Millions of real paragraphs: memory, not just bytes (issue 20: 4.6 GB for a 1.2 MB file).
    { ext: 'docx', data: docxZipBomb(100 * 1024 * 1024) },
  ];
}

/** Generates `count` hostile files (plus the fixed special cases), deterministically from `seed`. */
/**
 * Documents that link content from outside themselves (see test/documents/containment.test.ts,
 * which also proves nothing outside is read): here they must only answer cleanly.
 */
function linkingDocuments(): { ext: string; data: Buffer }[] {
  const outside = 'file:///etc/hostname';
  const remote = 'http://127.0.0.1:9/bg.png';
  return [
    { ext: 'odt', data: odtPageBackground(outside) },
    { ext: 'odt', data: odtParagraphBackground(remote) },
    { ext: 'odt', data: odtEmbeddedSvgLinkingOut(outside) },
    { ext: 'ods', data: odsCellBackground(climbingPath('/etc/hostname')) },
    { ext: 'odp', data: odpBitmapFill(remote) },
    { ext: 'docx', data: rtfField('INCLUDEPICTURE "/etc/hostname" \\d') },
    { ext: 'rtf', data: rtfField('INCLUDETEXT "/etc/hostname"') },
    { ext: 'docx', data: docxField('INCLUDETEXT "/etc/hostname"') },
    // Reaching the documents converted alongside (issue 20) and the office's own paths.
    {
      ext: 'odt',
      data: odtParagraphBackgrounds([
        ...stagedNeighbourGuesses('Thumbnails/thumbnail.png', 8, 2),
        zipPartUrl(outside, 'content.xml'),
        ...otherProviderUrls(outside, 'content.xml'),
      ]),
    },
    { ext: 'odt', data: odtFileNameFields() },
  ];
}

/** Small files declaring work over a budget (see docs/limits.md): each must be TOO_LARGE where it is decoded. */
export async function budgetBombs(): Promise<{ ext: string; kind: Kind; data: Buffer }[]> {
  const screen = { width: 16, height: 16 };
  const progressive = await sharp({
    create: { width: 320, height: 240, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg({ progressive: true })
    .toBuffer();
  return [
    { ext: 'gif', kind: 'image', data: gifWithFrames(screen, [{ width: 65535, height: 65535 }]) },
    { ext: 'gif', kind: 'image', data: gifWithFrames(screen, [screen, { width: 30_000, height: 30_000 }]) },
    {
      ext: 'gif',
      kind: 'image',
      data: gifWithFrames(
        screen,
        Array.from({ length: 10_001 }, () => ({ width: 1, height: 1 })),
      ),
    },
    { ext: 'jpg', kind: 'image', data: jpegWithScans(progressive, 6_000) },
    { ext: 'pdf', kind: 'pdf', data: contentBombPdf({ decompressedBytes: 200_000_000 }) },
    { ext: 'pdf', kind: 'pdf', data: contentBombPdf({ decompressedBytes: 200_000_000, inForm: true, twice: true }) },
  ];
}

export async function hostileCorpus(count: number, seed = 0x5eed): Promise<HostileFile[]> {
  const rand = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const base = await seeds();
  const files: HostileFile[] = [];
  const add = (mutation: string, ext: string, kind: Kind, data: Buffer) =>
    files.push({ name: `h${String(files.length).padStart(4, '0')}-${mutation}.${ext}`, kind, mutation, data });

  // Fixed cases: every seed empty, cycles, bombs, huge dimensions.
  for (const s of base) add('empty', s.ext, s.kind, Buffer.alloc(0));
  for (const data of cyclicPdfs()) add('cyclic-pdf', 'pdf', 'pdf', data);
  for (const bomb of zipBombs()) add('zip-bomb', bomb.ext, 'document', bomb.data);
  for (const linked of linkingDocuments()) add('linked-content', linked.ext, 'document', linked.data);
  for (const bomb of await budgetBombs()) add('budget-bomb', bomb.ext, bomb.kind, bomb.data);
  const jpeg = base.find((s) => s.ext === 'jpg')?.data as Buffer;
  const gif = base.find((s) => s.ext === 'gif')?.data as Buffer;
  const bmp = base.find((s) => s.ext === 'bmp')?.data as Buffer;
  const tinyIdat = zlib.deflateSync(Buffer.alloc(64));
  for (const [w, h] of [
    [65535, 65535],
    [2 ** 31 - 1, 1],
    [1, 2 ** 31 - 1],
    [100_000, 100_000],
    [9_000, 9_000],
    [0, 0],
  ] as const) {
    add('huge-dimensions', 'png', 'image', pngDeclaring(w, h, tinyIdat));
    if (w <= 65535 && h <= 65535) add('huge-dimensions', 'jpg', 'image', jpegDeclaring(jpeg, w, h));
    if (w <= 65535 && h <= 65535) add('huge-dimensions', 'gif', 'image', gifDeclaring(gif, w, h));
    add('huge-dimensions', 'bmp', 'image', bmpDeclaring(bmp, Math.min(w, 2 ** 31 - 1), Math.min(h, 2 ** 31 - 1)));
  }
  // A real decompression bomb: 11,000² grey pixels (121 MP, over the default limit) in ~120 KB.
  add('pixel-bomb', 'png', 'image', pngDeclaring(11_000, 11_000, zlib.deflateSync(Buffer.alloc(11_001 * 11_000), { level: 9 }), 0));

  while (files.length < count) {
    const s = pick(base);
    const mutation = pick(['bit-flip', 'bit-flip', 'bit-flip', 'truncate', 'truncate', 'swapped-header', 'wrong-extension', 'garbage-after-magic']);
    const data = Buffer.from(s.data);
    if (mutation === 'bit-flip') {
      const flips = 1 + Math.floor(rand() * 32);
      for (let i = 0; i < flips; i++) {
        const at = Math.floor(rand() * data.length);
        data[at] = (data[at] as number) ^ (1 << Math.floor(rand() * 8));
      }
      add(mutation, s.ext, s.kind, data);
    } else if (mutation === 'truncate') {
      add(mutation, s.ext, s.kind, data.subarray(0, Math.floor(rand() * data.length)));
    } else if (mutation === 'swapped-header') {
      const other = pick(base);
      const head = other.data.subarray(0, Math.min(32, other.data.length));
      add(mutation, s.ext, s.kind, Buffer.concat([head, data.subarray(head.length)]));
    } else if (mutation === 'wrong-extension') {
      const other = pick(base.filter((b) => b.ext !== s.ext));
      add(mutation, other.ext, other.kind, data);
    } else {
      const garbage = Buffer.alloc(1 + Math.floor(rand() * 4096));
      for (let i = 0; i < garbage.length; i++) garbage[i] = Math.floor(rand() * 256);
      add(mutation, s.ext, s.kind, Buffer.concat([data.subarray(0, 8), garbage]));
    }
  }
  return files;
}
