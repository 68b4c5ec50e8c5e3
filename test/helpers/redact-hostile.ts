// PDFs that hide one secret word in a single place other than plain page text, written byte by
// byte (independent of docwasm's PDF code), for the "no copy of a match anywhere" redaction tests.
// Every PDF has the same page: a public line drawn in Helvetica, and whatever the place adds.
// Objects 1–5 are the catalog, the page tree, the font, the page and its content; a place's own
// objects are numbered from 6 in the order given.

import { deflateSync } from 'node:zlib';
import { serializePdf } from './make-pdf.js';

export const SECRET = 'SECRET';
export const PUBLIC_LINE = 'Public line stays readable';

/** `text` as a PDF hex string of UTF-16BE with its byte-order mark. */
export function utf16Hex(text: string): string {
  const bytes = Buffer.from(text, 'utf16le');
  bytes.swap16();
  return `<FEFF${bytes.toString('hex')}>`;
}

/** A stream object; `deflate` stores it compressed, as most writers do. */
export function stream(data: string, dict = '', deflate = false): string {
  const body = deflate ? deflateSync(Buffer.from(data, 'latin1')).toString('latin1') : data;
  return `<< ${dict}${deflate ? ' /Filter /FlateDecode' : ''} /Length ${Buffer.byteLength(body, 'latin1')} >>\nstream\n${body}\nendstream`;
}

interface Place {
  /** Entries added to the catalog dictionary. */
  catalog?: string;
  /** Entries added to the page dictionary. */
  page?: string;
  /** Operators appended to the page's content. */
  content?: string;
  /** Objects 6, 7, ... */
  objects?: string[];
  /** Entries added to the trailer. */
  trailer?: string;
}

/** A form XObject (an appearance) drawing `text` in Helvetica 12 pt inside a 200 × 30 box. */
const appearance = (text: string) =>
  stream(`BT /Helv 12 Tf 4 10 Td (${text}) Tj ET`, '/Type /XObject /Subtype /Form /BBox [0 0 200 30] /Resources << /Font << /Helv 3 0 R >> >>', true);

export const PLACES = {
  stampAppearance: {
    page: '/Annots [6 0 R]',
    objects: ['<< /Type /Annot /Subtype /Stamp /Rect [300 600 500 630] /Name /Draft /AP << /N 7 0 R >> /F 4 >>', appearance(`Stamped ${SECRET} copy`)],
  },
  freeTextAppearance: {
    page: '/Annots [6 0 R]',
    objects: [
      `<< /Type /Annot /Subtype /FreeText /Rect [300 600 500 630] /Contents (Note ${SECRET} here) /DA (/Helv 12 Tf 0 g) /AP << /N 7 0 R >> /F 4 >>`,
      appearance(`Note ${SECRET} here`),
    ],
  },
  markupAnnotations: {
    // A square with rich text written with XML character references, a highlight and a sticky
    // note with popups: /Contents, /RC, /Subj and /T everywhere.
    page: '/Annots [6 0 R 7 0 R 8 0 R 9 0 R]',
    objects: [
      `<< /Type /Annot /Subtype /Square /Rect [72 500 200 560] /Contents (Boxed) /RC (<?xml version="1.0"?><body xmlns="http://www.w3.org/1999/xhtml"><p>&#83;ECRET &#x53;ECRET</p></body>) /Popup 7 0 R /F 4 >>`,
      '<< /Type /Annot /Subtype /Popup /Rect [220 500 400 560] /Parent 6 0 R >>',
      `<< /Type /Annot /Subtype /Highlight /Rect [72 700 200 716] /QuadPoints [72 716 200 716 72 700 200 700] /Contents ${utf16Hex(`Marked ${SECRET}`)} /T (Reviewer) /Popup 9 0 R /F 4 >>`,
      `<< /Type /Annot /Subtype /Popup /Rect [220 700 400 760] /Parent 8 0 R /Contents (${SECRET} in the popup) >>`,
    ],
  },
  choiceField: {
    catalog: '/AcroForm << /Fields [6 0 R] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 3 0 R >> >> >>',
    page: '/Annots [6 0 R]',
    objects: [
      `<< /Type /Annot /Subtype /Widget /FT /Ch /Ff 131072 /T (level) /V (${SECRET}) /Opt [(Public) (${SECRET}) [(x) (${SECRET} export)]] /DA (/Helv 12 Tf 0 g) /Rect [300 600 500 630] /AP << /N 7 0 R >> /P 4 0 R /F 4 >>`,
      appearance(SECRET),
    ],
  },
  textFieldDefault: {
    catalog: '/AcroForm << /Fields [6 0 R] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 3 0 R >> >> >>',
    page: '/Annots [6 0 R]',
    objects: [
      `<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /V (Public) /DV (${SECRET} by default) /DA (/Helv 12 Tf 0 g) /Rect [300 600 500 630] /P 4 0 R /F 4 >>`,
    ],
  },
  actualText: {
    // The glyphs show XXXX; the marked content says what they mean, in PDFDocEncoding and UTF-16BE.
    content: `/Span << /ActualText (${SECRET}) >> BDC BT /F1 12 Tf 72 600 Td (XXXX) Tj ET EMC\n/Span << /ActualText ${utf16Hex(`${SECRET}2`)} >> BDC BT /F1 12 Tf 72 580 Td (YYYY) Tj ET EMC`,
  },
  offPage: {
    content: `BT /F1 12 Tf 72 -300 Td (Below ${SECRET} the page) Tj ET\nBT /F1 12 Tf 900 400 Td (${SECRET}) Tj ET`,
  },
  linkUri: {
    page: '/Annots [6 0 R]',
    objects: [`<< /Type /Annot /Subtype /Link /Rect [72 700 300 720] /Border [0 0 0] /A << /S /URI /URI (https://example.com/files/${SECRET}/report) >> >>`],
  },
  xmpReferences: {
    catalog: '/Metadata 6 0 R',
    objects: [
      stream(
        `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">&#83;ECRET plans &amp; &#x53;&#x45;CRET</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`,
        '/Type /Metadata /Subtype /XML',
      ),
    ],
  },
  structureTree: {
    catalog: '/StructTreeRoot 6 0 R /MarkInfo << /Marked true >>',
    objects: [
      '<< /Type /StructTreeRoot /K [7 0 R] >>',
      `<< /Type /StructElem /S /Figure /P 6 0 R /Alt (A photo of ${SECRET}) /ActualText ${utf16Hex(`${SECRET} text`)} /T (Figure) /E (${SECRET}) >>`,
    ],
  },
  embeddedFile: {
    catalog: '/Names << /EmbeddedFiles << /Names [(SECRET.txt) 6 0 R] >> >>',
    objects: [
      `<< /Type /Filespec /F (${SECRET}.txt) /UF ${utf16Hex(`${SECRET}.txt`)} /Desc (The ${SECRET} file) /EF << /F 7 0 R >> >>`,
      stream(`The ${SECRET} plan, in full.`, '/Type /EmbeddedFile', true),
    ],
  },
  embeddedBodyOnly: {
    // Name and description say nothing: only the body holds the secret.
    catalog: '/Names << /EmbeddedFiles << /Names [(notes.txt) 6 0 R] >> >>',
    objects: [
      '<< /Type /Filespec /F (notes.txt) /UF (notes.txt) /EF << /F 7 0 R >> >>',
      stream(`Meeting about ${SECRET} at noon`, '/Type /EmbeddedFile /Subtype /text#2Fplain', true),
    ],
  },
  fileAttachmentAnnotation: {
    page: '/Annots [6 0 R]',
    objects: [
      '<< /Type /Annot /Subtype /FileAttachment /Rect [500 700 520 720] /Contents (Attached) /FS 7 0 R /Name /PushPin >>',
      `<< /Type /Filespec /F (${SECRET}-minutes.txt) /EF << /F 8 0 R >> >>`,
      stream('Minutes of the meeting', '/Type /EmbeddedFile', true),
    ],
  },
  outlineAndDestinations: {
    catalog: `/Outlines 6 0 R /Names << /Dests << /Names [(${SECRET}-dest) [4 0 R /Fit]] >> >> /Dests << /${SECRET}old [4 0 R /Fit] >>`,
    objects: [
      '<< /Type /Outlines /First 7 0 R /Last 8 0 R /Count 2 >>',
      `<< /Title ${utf16Hex(`Chapter ${SECRET}`)} /Parent 6 0 R /Dest (${SECRET}-dest) /Next 8 0 R >>`,
      `<< /Title (Old style) /Parent 6 0 R /Dest /${SECRET}old /Prev 7 0 R >>`,
    ],
  },
  pageLabels: {
    catalog: `/PageLabels << /Nums [0 << /S /D /P (${SECRET}-) >>] >>`,
  },
  layerNames: {
    catalog: '/OCProperties << /OCGs [6 0 R] /D << /Order [6 0 R] /ON [6 0 R] /Name (Default) >> >>',
    page: '/Resources << /Font << /F1 3 0 R >> /Properties << /L1 6 0 R >> >>',
    content: '/OC /L1 BDC BT /F1 12 Tf 72 600 Td (Layered) Tj ET EMC',
    objects: [`<< /Type /OCG /Name (${SECRET} layer) >>`],
  },
  javaScript: {
    catalog: `/Names << /JavaScript << /Names [(init) 6 0 R] >> >> /OpenAction << /S /JavaScript /JS (app.alert\\("${SECRET}"\\);) >>`,
    objects: ['<< /S /JavaScript /JS 7 0 R >>', stream(`var note = "${SECRET}"; app.alert(note);`, '', true)],
  },
  namesAndInfo: {
    // A name written with #xx escapes, and Info strings in UTF-16BE and hex.
    trailer: ' /Info 6 0 R',
    objects: [`<< /Title ${utf16Hex(`Report ${SECRET}`)} /Subject <${Buffer.from(`About ${SECRET}`).toString('hex')}> /Category /SE#43RET#20tag >>`],
  },
} satisfies Record<string, Place>;

export type PlaceName = keyof typeof PLACES;

/** A one-page PDF with the public line and the secret hidden in `place` only. */
export function pdfWithSecretIn(place: Place): Buffer {
  const content = `BT /F1 12 Tf 72 740 Td (${PUBLIC_LINE}) Tj ET${place.content ? `\n${place.content}` : ''}`;
  const resources = place.page?.includes('/Resources') ? '' : ' /Resources << /Font << /F1 3 0 R >> >>';
  return serializePdf(
    [
      `<< /Type /Catalog /Pages 2 0 R ${place.catalog ?? ''} >>`,
      '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]${resources} /Contents 5 0 R ${place.page ?? ''} >>`,
      stream(content),
      ...(place.objects ?? []),
    ],
    place.trailer ?? '',
  );
}

/**
 * Every way the secret could still be written in a file that qpdf has decompressed: as text,
 * UTF-16BE (raw or hex), hex of its bytes, a name with #xx escapes, XML character references.
 */
export function secretForms(secret: string): RegExp[] {
  const utf16 = Buffer.from(secret, 'utf16le').swap16();
  const hex = (bytes: Buffer) => bytes.toString('hex').split('').join('\\s*');
  return [
    new RegExp(secret),
    new RegExp(utf16.toString('latin1').replace(/\0/g, '\\x00')),
    new RegExp(hex(Buffer.from(secret)), 'i'),
    new RegExp(hex(utf16), 'i'),
    new RegExp(
      secret
        .split('')
        .map((c) => `(?:${c}|#${c.charCodeAt(0).toString(16)}|&#${c.charCodeAt(0)};|&#x${c.charCodeAt(0).toString(16)};)`)
        .join(''),
      'i',
    ),
  ];
}
