// Documents that attack the Markdown readers, written byte by byte: nesting deep enough to
// overflow a recursive reader, tables taller than any argument list, a few hundred bytes that
// repeat a row a million times, spans that cover billions of grid cells, a zip whose XML
// inflates to hundreds of MB, and links and pictures that would make the Markdown active.

import { odfPackage } from './hostile-documents.js';
import { makeZip, type ZipEntry } from './zip.js';

/** `open` `depth` times, then `inner`, then `close` `depth` times. */
export const nest = (open: string, close: string, depth: number, inner = ''): string => `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

const W =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const HYPERLINK = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink';

/** External relationships of a part: id → target as written in the XML (character references and all). */
const relsXml = (links: Readonly<Record<string, string>>, extra = ''): string =>
  `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}">${Object.entries(links)
    .map(([id, url]) => `<Relationship Id="${id}" Type="${HYPERLINK}" Target="${url}" TargetMode="External"/>`)
    .join('')}${extra}</Relationships>`;

export const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** A Word document whose body is `body` (WordprocessingML), with hyperlink targets by id and more parts (numbering, footnotes). */
export function docx(body: string | Buffer, links: Readonly<Record<string, string>> = {}, parts: readonly ZipEntry[] = []): Buffer {
  const document = Buffer.concat([
    Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document ${W}><w:body>`),
    Buffer.from(body),
    Buffer.from('</w:body></w:document>'),
  ]);
  return makeZip([
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
    },
    { name: 'word/document.xml', data: document },
    { name: 'word/_rels/document.xml.rels', data: relsXml(links) },
    ...parts.map((part) => ({
      ...part,
      data: part.name.endsWith('.xml') && !Buffer.isBuffer(part.data) ? `<?xml version="1.0" encoding="UTF-8"?>${part.data}` : part.data,
    })),
  ]);
}

/** word/numbering.xml with one list (numId 1) whose every level is decimal. */
export const DECIMAL_NUMBERING: ZipEntry = {
  name: 'word/numbering.xml',
  data: `<w:numbering ${W}><w:abstractNum w:abstractNumId="0">${Array.from({ length: 9 }, (_, l) => `<w:lvl w:ilvl="${l}"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%${l + 1}."/></w:lvl>`).join('')}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`,
};

/** word/footnotes.xml with notes 1…count, each referring to the next: a chain `count` long. */
export function chainedFootnotes(count: number): ZipEntry {
  const notes = Array.from(
    { length: count },
    (_, i) =>
      `<w:footnote w:id="${i + 1}"><w:p><w:r><w:t>note ${i + 1}</w:t></w:r>${i + 1 < count ? `<w:r><w:footnoteReference w:id="${i + 2}"/></w:r>` : ''}</w:p></w:footnote>`,
  );
  return { name: 'word/footnotes.xml', data: `<w:footnotes ${W}>${notes.join('')}</w:footnotes>` };
}

/** A paragraph of one run of `text`. */
export const wp = (text: string): string => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;

/** An Excel workbook of one sheet whose `<sheetData>` is `rows` (inline strings, no shared strings), then `after` (mergeCells). */
export function xlsx(rows: string | Buffer, after = ''): Buffer {
  const sheet = Buffer.concat([
    Buffer.from('<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'),
    Buffer.from(rows),
    Buffer.from(`</sheetData>${after}</worksheet>`),
  ]);
  return makeZip([
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
    },
    {
      name: 'xl/workbook.xml',
      data: '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>',
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    },
    { name: 'xl/worksheets/sheet1.xml', data: sheet },
  ]);
}

/** An inline-string cell. */
export const xc = (ref: string, text: string): string => `<c r="${ref}" t="inlineStr"><is><t>${escapeXml(text)}</t></is></c>`;

const P =
  'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

/** The relationship id of the one image every test deck holds (ppt/media/image1.png), for a picture's `a:blip r:embed`. */
export const PPTX_IMAGE_ID = 'rIdImage';

/** A PowerPoint deck of one slide whose shape tree holds `shapes`, with hyperlink targets by id. */
export function pptx(shapes: string | Buffer, links: Readonly<Record<string, string>> = {}): Buffer {
  const slide = Buffer.concat([
    Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><p:sld ${P}><p:cSld><p:spTree>`),
    Buffer.from(shapes),
    Buffer.from('</p:spTree></p:cSld></p:sld>'),
  ]);
  return makeZip([
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/></Types>',
    },
    {
      name: 'ppt/presentation.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><p:presentation ${P}><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`,
    },
    {
      name: 'ppt/_rels/presentation.xml.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide1.xml"/></Relationships>`,
    },
    { name: 'ppt/slides/slide1.xml', data: slide },
    {
      name: 'ppt/slides/_rels/slide1.xml.rels',
      data: relsXml(
        links,
        `<Relationship Id="${PPTX_IMAGE_ID}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="../media/image1.png"/>`,
      ),
    },
    // A picture shows only an image the file holds; its bytes are never read.
    { name: 'ppt/media/image1.png', data: 'not read' },
  ]);
}

/** A text box of one paragraph whose runs link to the relationships named. */
export const pptxLinkedRuns = (runs: readonly { text: string; rId?: string }[]): string =>
  `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Text"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:p>${runs
    .map(({ text, rId }) => `<a:r><a:rPr lang="en-US">${rId ? `<a:hlinkClick r:id="${rId}"/>` : ''}</a:rPr><a:t>${escapeXml(text)}</a:t></a:r>`)
    .join('')}</a:p></p:txBody></p:sp>`;

export const odt = (body: string): Buffer => odfPackage({ kind: 'text', body });
export const ods = (body: string): Buffer => odfPackage({ kind: 'spreadsheet', body });
export const odp = (body: string): Buffer => odfPackage({ kind: 'presentation', body });

/** Rewrites the uncompressed size a zip declares for every entry (local and central headers): a liar. */
export function declareUncompressedSize(zip: Buffer, size: number): Buffer {
  const out = Buffer.from(zip);
  for (let p = 0; p + 4 <= out.length; p++) {
    const signature = out.readUInt32LE(p);
    if (signature === 0x04034b50) out.writeUInt32LE(size, p + 22);
    else if (signature === 0x02014b50) out.writeUInt32LE(size, p + 24);
  }
  return out;
}
