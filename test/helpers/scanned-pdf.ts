// Scanned PDFs for the tests, written here byte by byte (independent of docwasm's own PDF code):
// each page is one JPEG drawn over the whole page and nothing else, as a scanner makes them.

import sharp from 'sharp';

export interface ScannedPage {
  /** The page image (any format sharp reads); stored as a grey JPEG. */
  image: Buffer;
  /** Resolution the page was scanned at: the page is the image's size at it. */
  dpi: number;
}

export async function makeScannedPdf(pages: readonly ScannedPage[]): Promise<Buffer> {
  const objects: (string | Buffer)[][] = [['<< /Type /Catalog /Pages 2 0 R >>']];
  const pageIds = pages.map((_, i) => 3 + i * 3);
  objects.push([`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`]);
  for (const [i, page] of pages.entries()) {
    const jpeg = await sharp(page.image).toColourspace('b-w').jpeg({ quality: 90 }).toBuffer();
    const { width = 0, height = 0, channels } = await sharp(jpeg).metadata();
    const w = (width * 72) / page.dpi;
    const h = (height * 72) / page.dpi;
    const content = `q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q`;
    const id = pageIds[i] as number;
    objects.push([`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /XObject << /Im0 ${id + 2} 0 R >> >> /Contents ${id + 1} 0 R >>`]);
    objects.push([`<< /Length ${content.length} >>\nstream\n${content}\nendstream`]);
    objects.push([
      `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /${channels === 1 ? 'DeviceGray' : 'DeviceRGB'} /BitsPerComponent 8 /Filter /DCTDecode /Length ${jpeg.length} >>\nstream\n`,
      jpeg,
      '\nendstream',
    ]);
  }
  return serialize(objects);
}

/** Objects numbered from 1 (the catalog first), binary streams kept as bytes, with a correct xref. */
function serialize(objects: readonly (string | Buffer)[][]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]?.length ?? 0;
  const push = (chunk: string | Buffer) => {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
    parts.push(buffer);
    length += buffer.length;
  };
  const offsets = objects.map((chunks, i) => {
    const offset = length;
    push(`${i + 1} 0 obj\n`);
    chunks.forEach(push);
    push('\nendobj\n');
    return offset;
  });
  const xref = length;
  push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`);
  push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}
