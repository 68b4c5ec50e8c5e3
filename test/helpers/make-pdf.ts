// Writes small real PDFs for the tests: one Helvetica text line per page, optional outline.

export interface PdfSpec {
  pages: string[];
  /** One top-level bookmark per entry, pointing at page index `page`. */
  bookmarks?: { title: string; page: number }[];
}

export function makePdf({ pages, bookmarks = [] }: PdfSpec): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) + 0;
  const pageIds = pages.map((_, i) => 4 + i * 2);
  const outlineRoot = 4 + pages.length * 2;
  add(`<< /Type /Catalog /Pages 2 0 R${bookmarks.length ? ` /Outlines ${outlineRoot} 0 R` : ''} >>`);
  add(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`);
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  pages.forEach((text, i) => {
    const stream = `BT /F1 24 Tf 72 700 Td (${text.replace(/[()\\]/g, '\\$&')}) Tj ET`;
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`);
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
  let out = '%PDF-1.7\n';
  const offsets = objects.map((body, i) => {
    const offset = out.length;
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
