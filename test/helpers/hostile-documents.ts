// Documents that try to pull content from outside themselves: linked backgrounds in ODF styles,
// RTF/DOCX include fields, SVG images that link out. Each points at "secrets" (a PDF and an
// SVG carrying SECRET_TEXT, a PNG of SECRET_PNG_SIZE, a text file) or at a loopback listener.

import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { pngFile } from './images.js';
import { makePdf } from './make-pdf.js';
import { makeZip } from './zip.js';

export const SECRET_TEXT = 'DOCWASMSECRET';
/** An image size no vector has for any other reason. */
export const SECRET_PNG_SIZE = { width: 97, height: 53 };
export const VISIBLE_TEXT = 'hostile document body';

export interface Secrets {
  png: string;
  pdf: string;
  svg: string;
  txt: string;
}

export function secretFiles(dir: string): Record<keyof Secrets, [string, Buffer]> {
  const at = (name: string) => path.join(dir, name);
  return {
    png: [at('secret.png'), solidPng(SECRET_PNG_SIZE.width, SECRET_PNG_SIZE.height, [200, 30, 60])],
    pdf: [at('secret.pdf'), makePdf({ pages: [`${SECRET_TEXT} pdf`] })],
    svg: [
      at('secret.svg'),
      Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100"><text x="10" y="50" font-size="30">${SECRET_TEXT} svg</text></svg>`),
    ],
    txt: [at('secret.txt'), Buffer.from(`${SECRET_TEXT} txt\n`)],
  };
}

export function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return pngFile(width, height, 2, zlib.deflateSync(pixels));
}

export const fileUrl = (file: string) => pathToFileURL(file).href;

/** A relative reference that climbs to / from any staging dir, then down to `file`. */
export const climbingPath = (file: string) => `${'../'.repeat(24)}${file.replace(/^\//, '')}`;

// ---- ODF ----

const ODF_NS = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"',
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"',
  'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"',
  'xmlns:xlink="http://www.w3.org/1999/xlink"',
].join(' ');

type OdfKind = 'text' | 'spreadsheet' | 'presentation';

interface OdfParts {
  kind: OdfKind;
  /** Inside office:styles of styles.xml. */
  styles?: string;
  /** Inside office:automatic-styles of styles.xml. */
  pageStyles?: string;
  masterStyles?: string;
  /** Inside office:automatic-styles of content.xml. */
  contentStyles?: string;
  body: string;
  files?: { name: string; mediaType: string; data: Buffer | string }[];
}

export function odfPackage({ kind, styles = '', pageStyles = '', masterStyles = '', contentStyles = '', body, files = [] }: OdfParts): Buffer {
  const mimetype = `application/vnd.oasis.opendocument.${kind}`;
  const stylesXml = `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-styles ${ODF_NS} office:version="1.2"><office:styles>${styles}</office:styles><office:automatic-styles>${pageStyles}</office:automatic-styles><office:master-styles>${masterStyles}</office:master-styles></office:document-styles>\n`;
  const contentXml = `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content ${ODF_NS} office:version="1.2"><office:automatic-styles>${contentStyles}</office:automatic-styles><office:body><office:${kind}>${body}</office:${kind}></office:body></office:document-content>\n`;
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mimetype}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/>${files.map((f) => `<manifest:file-entry manifest:full-path="${f.name}" manifest:media-type="${f.mediaType}"/>`).join('')}</manifest:manifest>\n`;
  return makeZip([
    { name: 'mimetype', data: mimetype, deflate: false },
    { name: 'content.xml', data: contentXml },
    { name: 'styles.xml', data: stylesXml },
    ...files.map((f) => ({ name: f.name, data: f.data })),
    { name: 'META-INF/manifest.xml', data: manifest },
  ]);
}

const backgroundImage = (href: string) => `<style:background-image xlink:href="${href}" xlink:type="simple" xlink:actuate="onLoad" style:repeat="stretch"/>`;
const paragraph = (style = '') => `<text:p${style ? ` text:style-name="${style}"` : ''}>${VISIBLE_TEXT}</text:p>`;

/** Text document whose page style has a background picture at `href`. */
export function odtPageBackground(href: string): Buffer {
  return odfPackage({
    kind: 'text',
    pageStyles: `<style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm">${backgroundImage(href)}</style:page-layout-properties></style:page-layout>`,
    masterStyles: '<style:master-page style:name="Standard" style:page-layout-name="pm1"/>',
    body: paragraph(),
  });
}

export function odtParagraphBackground(href: string): Buffer {
  return odfPackage({
    kind: 'text',
    contentStyles: `<style:style style:name="P1" style:family="paragraph"><style:paragraph-properties>${backgroundImage(href)}</style:paragraph-properties></style:style>`,
    body: paragraph('P1'),
  });
}

export function odtFrameBackground(href: string): Buffer {
  return odfPackage({
    kind: 'text',
    contentStyles: `<style:style style:name="fr1" style:family="graphic"><style:graphic-properties>${backgroundImage(href)}</style:graphic-properties></style:style>`,
    body: `${paragraph()}<text:p><draw:frame draw:style-name="fr1" draw:name="box" text:anchor-type="paragraph" svg:width="8cm" svg:height="4cm"><draw:text-box><text:p>in a frame</text:p></draw:text-box></draw:frame></text:p>`,
  });
}

/** Text document embedding Pictures/link.svg, whose <image> links to `href`. */
export function odtEmbeddedSvgLinkingOut(href: string): Buffer {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" height="200"><rect width="400" height="200" fill="#eeeeee"/><image x="0" y="0" width="400" height="200" xlink:href="${href}"/></svg>`;
  return odfPackage({
    kind: 'text',
    body: `${paragraph()}<text:p><draw:frame draw:name="svg" text:anchor-type="paragraph" svg:width="8cm" svg:height="4cm"><draw:image xlink:href="Pictures/link.svg" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>`,
    files: [{ name: 'Pictures/link.svg', mediaType: 'image/svg+xml', data: svg }],
  });
}

/** Positive control: a text document with an embedded PNG of `size`. */
export function odtEmbeddedPng(png: Buffer): Buffer {
  return odfPackage({
    kind: 'text',
    body: `${paragraph()}<text:p><draw:frame draw:name="pic" text:anchor-type="paragraph" svg:width="4cm" svg:height="3cm"><draw:image xlink:href="Pictures/pic.png" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>`,
    files: [{ name: 'Pictures/pic.png', mediaType: 'image/png', data: png }],
  });
}

export function odsPageBackground(href: string): Buffer {
  return odfPackage({
    kind: 'spreadsheet',
    pageStyles: `<style:page-layout style:name="pm1"><style:page-layout-properties>${backgroundImage(href)}</style:page-layout-properties></style:page-layout>`,
    masterStyles: '<style:master-page style:name="Default" style:page-layout-name="pm1"/>',
    body: `<table:table table:name="Sheet1"><table:table-row><table:table-cell office:value-type="string"><text:p>${VISIBLE_TEXT}</text:p></table:table-cell></table:table-row></table:table>`,
  });
}

export function odsCellBackground(href: string): Buffer {
  return odfPackage({
    kind: 'spreadsheet',
    contentStyles: `<style:style style:name="ce1" style:family="table-cell"><style:table-cell-properties>${backgroundImage(href)}</style:table-cell-properties></style:style>`,
    body: `<table:table table:name="Sheet1"><table:table-row><table:table-cell table:style-name="ce1" office:value-type="string"><text:p>${VISIBLE_TEXT}</text:p></table:table-cell></table:table-row></table:table>`,
  });
}

/** Presentation whose page (and a shape) are filled with a bitmap linked at `href`. */
export function odpBitmapFill(href: string): Buffer {
  return odfPackage({
    kind: 'presentation',
    styles: `<draw:fill-image draw:name="outside" xlink:href="${href}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/>`,
    pageStyles: '<style:page-layout style:name="PM1"><style:page-layout-properties fo:page-width="28cm" fo:page-height="21cm"/></style:page-layout>',
    masterStyles: '<style:master-page style:name="Default" style:page-layout-name="PM1"/>',
    contentStyles:
      '<style:style style:name="dp1" style:family="drawing-page"><style:drawing-page-properties draw:fill="bitmap" draw:fill-image-name="outside" presentation:background-visible="true"/></style:style>' +
      '<style:style style:name="gr1" style:family="graphic"><style:graphic-properties draw:fill="bitmap" draw:fill-image-name="outside"/></style:style>',
    body: `<draw:page draw:name="p1" draw:style-name="dp1" draw:master-page-name="Default"><draw:rect draw:style-name="gr1" svg:x="2cm" svg:y="2cm" svg:width="10cm" svg:height="6cm"><text:p>${VISIBLE_TEXT}</text:p></draw:rect></draw:page>`,
  });
}

// ---- RTF and DOCX fields ----

export function rtfField(instruction: string): Buffer {
  return Buffer.from(
    `{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Helvetica;}}\\pard ${VISIBLE_TEXT}\\par\n{\\field{\\*\\fldinst ${instruction}}{\\fldrslt x}}\\par\n}\n`,
    'latin1',
  );
}

export function docxField(instruction: string): Buffer {
  const escaped = instruction.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return minimalDocx(`<w:p><w:r><w:t>${VISIBLE_TEXT}</w:t></w:r></w:p><w:p><w:fldSimple w:instr="${escaped}"><w:r><w:t>x</w:t></w:r></w:fldSimple></w:p>`);
}

/**
 * A zip bomb: a small .docx whose word/document.xml inflates to about `xmlBytes` of paragraphs
 * (each a few characters of text, so the office builds millions of nodes from it).
 */
export function docxZipBomb(xmlBytes: number): Buffer {
  const paragraph = '<w:p><w:r><w:t>bomb</w:t></w:r></w:p>';
  return minimalDocx(paragraph.repeat(Math.ceil(xmlBytes / paragraph.length)));
}

function minimalDocx(body: string): Buffer {
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`;
  return makeZip([
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    },
    {
      name: '_rels/.rels',
      data: '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    },
    { name: 'word/document.xml', data: document },
  ]);
}

// ---- a listener that must never be called ----

export interface LoopbackListener {
  url: (name: string) => string;
  hits: () => string[];
  close: () => Promise<void>;
}

export async function loopbackListener(png: Buffer): Promise<LoopbackListener> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method ?? '?'} ${req.url ?? ''}`);
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
    res.end(req.method === 'HEAD' ? undefined : png);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    hits: () => [...hits],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---- reaching other documents converted by the same office ----

/** `vnd.sun.star.zip://<file URL, encoded>/<part>`: one part of a ZIP package read through LibreOffice's package provider. */
export const zipPartUrl = (fileUrlOfPackage: string, part: string) => `vnd.sun.star.zip://${encodeURIComponent(fileUrlOfPackage)}/${part}`;

/**
 * Where the office of docwasm's first design staged its files: run-N/in/jK.<ext> below its
 * working directory. An attacker cannot know N (invocations so far) or K, so it tries them all.
 */
export function stagedNeighbourGuesses(part: string, runs = 40, files = 4, extension = 'odt'): string[] {
  const guesses: string[] = [];
  for (let n = 1; n <= runs; n++) for (let k = 0; k < files; k++) guesses.push(zipPartUrl(`file:///proc/self/cwd/run-${n}/in/j${k}.${extension}`, part));
  return guesses;
}

/** The same part through the other package provider (`vnd.sun.star.pkg`) and through the office's list of open documents (`vnd.sun.star.tdoc`). */
export function otherProviderUrls(fileUrlOfPackage: string, part: string): string[] {
  const tdoc = Array.from({ length: 8 }, (_, id) => `vnd.sun.star.tdoc:/${id + 1}/${part}`);
  return [`vnd.sun.star.pkg://${encodeURIComponent(fileUrlOfPackage)}/${part}`, ...tdoc];
}

/** Text document with one paragraph per `href`, each paragraph's background the picture at that href. */
export function odtParagraphBackgrounds(hrefs: readonly string[]): Buffer {
  const styles = hrefs.map(
    (href, i) =>
      `<style:style style:name="P${i}" style:family="paragraph"><style:paragraph-properties>${backgroundImage(href)}</style:paragraph-properties></style:style>`,
  );
  return odfPackage({ kind: 'text', contentStyles: styles.join(''), body: hrefs.map((_, i) => paragraph(`P${i}`)).join('') || paragraph() });
}

/** Text document printing its own file name and path (text:file-name) and its template's. */
export function odtFileNameFields(): Buffer {
  const fields = ['full', 'path', 'name', 'name-and-extension'].map(
    (display) => `<text:p>${display}: <text:file-name text:display="${display}">x</text:file-name></text:p>`,
  );
  return odfPackage({
    kind: 'text',
    body: `${paragraph()}${fields.join('')}<text:p>template: <text:template-name text:display="full">x</text:template-name></text:p>`,
  });
}
