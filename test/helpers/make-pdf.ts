import { randomBytes } from 'node:crypto';

// Writes small real PDFs for the tests: one Helvetica text line per page, optional outline.

export interface PdfSpec {
  pages: string[];
  /** One top-level bookmark per entry, pointing at page index `page`. */
  bookmarks?: { title: string; page: number }[];
  /** A URI link annotation on every page (inline, with a /P back-reference to its page). */
  linkUri?: string;
}

export function makePdf({ pages, bookmarks = [], linkUri }: PdfSpec): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) + 0;
  const pageIds = pages.map((_, i) => 4 + i * 2);
  const outlineRoot = 4 + pages.length * 2;
  add(`<< /Type /Catalog /Pages 2 0 R${bookmarks.length ? ` /Outlines ${outlineRoot} 0 R` : ''} >>`);
  add(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`);
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  pages.forEach((text, i) => {
    const stream = `BT /F1 24 Tf 72 700 Td (${text.replace(/[()\\]/g, '\\$&')}) Tj ET`;
    const annots = linkUri
      ? ` /Annots [<< /Type /Annot /Subtype /Link /Rect [72 690 300 720] /Border [0 0 0] /A << /S /URI /URI (${linkUri}) >> /P ${4 + i * 2} 0 R >>]`
      : '';
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R${annots} >>`);
    add(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  if (bookmarks.length) {
    const first = outlineRoot + 1;
    add(`<< /Type /Outlines /First ${first} 0 R /Last ${first + bookmarks.length - 1} 0 R /Count ${bookmarks.length} >>`);
    bookmarks.forEach((b, i) => {
      const id = first + i;
      const links = `${i > 0 ? ` /Prev ${id - 1} 0 R` : ''}${i < bookmarks.length - 1 ? ` /Next ${id + 1} 0 R` : ''}`;
      add(`<< /Title (${b.title}) /Parent ${outlineRoot} 0 R /Dest [${pageIds[b.page]} 0 R /Fit]${links} >>`);
    });
  }
  return serializePdf(objects);
}

/**
 * Numbers `objects` from 1 (the first is the catalog) and writes them with a correct xref table.
 * `trailerExtra` is added to the trailer; `XREF` in it becomes the xref offset.
 */
export function serializePdf(objects: readonly string[], trailerExtra = ''): Buffer {
  let out = '%PDF-1.7\n';
  const offsets = objects.map((body, i) => {
    const offset = out.length;
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${trailerExtra.replace('XREF', String(xref))} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/**
 * A PDF whose pages each carry one incompressible RGB image (random noise), for size- and
 * memory-heavy tests: `pages` × `side`² × 3 bytes of image data.
 */
export function makeImagePdf(pages: number, side: number): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (chunk: Buffer | string) => {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
    parts.push(buffer);
    length += buffer.length;
  };
  const object = (id: number, ...chunks: (Buffer | string)[]) => {
    offsets[id] = length;
    push(`${id} 0 obj\n`);
    chunks.forEach(push);
    push('\nendobj\n');
  };
  const pageIds = Array.from({ length: pages }, (_, i) => 3 + i * 3);
  push('%PDF-1.7\n');
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages} >>`);
  for (const [i, id] of pageIds.entries()) {
    const pixels = randomBytes(side * side * 3);
    const content = `q 612 0 0 792 0 0 cm /Im${i} Do Q`;
    object(id, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im${i} ${id + 2} 0 R >> >> /Contents ${id + 1} 0 R >>`);
    object(id + 1, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    object(
      id + 2,
      `<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Length ${pixels.length} >>\nstream\n`,
      pixels,
      '\nendstream',
    );
  }
  const count = 3 + pages * 3;
  const xref = length;
  push(`xref\n0 ${count}\n0000000000 65535 f \n`);
  for (let id = 1; id < count; id++) push(`${String(offsets[id]).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}
