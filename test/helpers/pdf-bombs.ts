// PDFs whose streams decompress to far more than their size: a page's content stream of
// `decompressedBytes` of drawing operators, deflated once (about 1:1000) or twice; and PDFs
// showing a given JPEG. Written with a correct xref table (qpdf --check accepts them).

import { deflateSync } from 'node:zlib';

export interface ContentBombSpec {
  /** Length of the decompressed content stream. */
  decompressedBytes: number;
  /** Deflated twice ([/FlateDecode /FlateDecode]): the file shrinks a thousand times more. */
  twice?: boolean;
  /** The operators drawn by a form XObject the page paints, instead of the page itself. */
  inForm?: boolean;
}

/** Operators that draw nothing visible but must each be interpreted: save and restore the state. */
function operators(length: number): Buffer {
  return Buffer.alloc(length, 'q Q\n');
}

export function contentBombPdf({ decompressedBytes, twice = false, inForm = false }: ContentBombSpec): Buffer {
  let data = deflateSync(operators(decompressedBytes), { level: 9 });
  if (twice) data = deflateSync(data, { level: 9 });
  const filter = twice ? '[/FlateDecode /FlateDecode]' : '/FlateDecode';
  const bomb = (dict: string) => [Buffer.from(`<< ${dict} /Filter ${filter} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')];
  const pageContent = Buffer.from('/Bomb Do');
  const objects: Buffer[][] = [
    [Buffer.from('<< /Type /Catalog /Pages 2 0 R >>')],
    [Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>')],
    [Buffer.from(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R${inForm ? ' /Resources << /XObject << /Bomb 5 0 R >> >>' : ''} >>`)],
    inForm ? [Buffer.from(`<< /Length ${pageContent.length} >>\nstream\n`), pageContent, Buffer.from('\nendstream')] : bomb(''),
    ...(inForm ? [bomb('/Type /XObject /Subtype /Form /BBox [0 0 200 200]')] : []),
  ];
  return writePdf(objects);
}

/** A one-page PDF showing `jpeg` (kept as a DCTDecode stream, as scanners and converters embed them). */
export function jpegImagePdf(jpeg: Buffer, width: number, height: number): Buffer {
  const content = Buffer.from(`q 200 0 0 150 0 0 cm /Im0 Do Q`);
  return writePdf([
    [Buffer.from('<< /Type /Catalog /Pages 2 0 R >>')],
    [Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>')],
    [Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 150] /Contents 4 0 R /Resources << /XObject << /Im0 5 0 R >> >> >>')],
    [Buffer.from(`<< /Length ${content.length} >>\nstream\n`), content, Buffer.from('\nendstream')],
    [
      Buffer.from(
        `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${jpeg.length} >>\nstream\n`,
      ),
      jpeg,
      Buffer.from('\nendstream'),
    ],
  ]);
}

/**
 * A Letter page with one line of text ("Many paths", amid the drawings) and `paths` drawings: tiny filled squares
 * (`'dots'`), or horizontal and vertical strokes across the page in turn (`'mesh'`: graph
 * paper, lines a point or two apart).
 */
export function manyPathsPdf(paths: number, kind: 'dots' | 'mesh'): Buffer {
  const ops: string[] = ['BT /F1 12 Tf 100 400 Td (Many paths) Tj ET\n'];
  for (let i = 0; i < paths; i++) {
    if (kind === 'dots') ops.push(`${50 + (i % 500)} ${50 + (Math.floor(i / 500) % 650)} 0.5 0.5 re f\n`);
    else if (i % 2 === 0) ops.push(`50 ${(50 + (i / 2) * (650 / paths) * 2).toFixed(2)} m 550 ${(50 + (i / 2) * (650 / paths) * 2).toFixed(2)} l S\n`);
    else ops.push(`${(50 + ((i - 1) / 2) * (500 / paths) * 2).toFixed(2)} 50 m ${(50 + ((i - 1) / 2) * (500 / paths) * 2).toFixed(2)} 700 l S\n`);
  }
  const data = deflateSync(Buffer.from(ops.join('')));
  return writePdf([
    [Buffer.from('<< /Type /Catalog /Pages 2 0 R >>')],
    [Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>')],
    [Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>')],
    [Buffer.from(`<< /Filter /FlateDecode /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')],
    [Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>')],
  ]);
}

/** Objects numbered from 1 (the first is the catalog), each given as its body's parts. */
function writePdf(objects: readonly Buffer[][]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  const add = (part: Buffer) => {
    parts.push(part);
    length += part.length;
  };
  objects.forEach((body, i) => {
    offsets.push(length);
    add(Buffer.from(`${i + 1} 0 obj\n`));
    body.forEach(add);
    add(Buffer.from('\nendobj\n'));
  });
  const xref = length;
  const rows = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  add(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${rows}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
}
