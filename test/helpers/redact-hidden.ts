// PDFs that hide a word where a page's text search does not look, for the redaction tests:
// a page thumbnail (/Thumb, pixels rendered by pdftoppm) and an optional-content layer that is
// off (by hand in Helvetica, or wrapped with qpdf around LibreOffice's subset-font page). And the
// independent readings that find the word again: tesseract over every image object qpdf decodes,
// pdftotext after the layers are switched on.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { serializePdf } from './make-pdf.js';
import { DEBIAN_TESSDATA, PYTHON } from './tools.js';

export const WORD = 'ZEPHYRINE';

/** A gray page rendered by pdftoppm, as PDF image pixels. */
interface GrayImage {
  width: number;
  height: number;
  pixels: Buffer;
}

/** Page `page` of `pdf` rendered in grey at `dpi` by pdftoppm (PGM). */
export function renderGray(pdf: string, page: number, dpi: number): GrayImage {
  const pgm = execFileSync('pdftoppm', ['-gray', '-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', pdf]);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'));
  if (!header) throw new Error('pdftoppm wrote no PGM');
  const [, width, height] = header.map(Number) as [number, number, number];
  return { width, height, pixels: pgm.subarray(header[0].length) };
}

const page = (content: number, extra = '', resources = '') =>
  `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >>${resources} >> /Contents ${content} 0 R${extra} >>`;
const stream = (body: string, dict = '') => `<< /Length ${Buffer.byteLength(body, 'latin1')}${dict} >>\nstream\n${body}\nendstream`;
const lines = (texts: string[], top = 720) => texts.map((text, i) => `BT /F1 20 Tf 72 ${top - i * 30} Td (${text}) Tj ET`).join('\n');

/** Ten lines holding the word on page 1, a clean page 2; `thumbs` (one per page) become their /Thumb images. */
export function thumbnailPdf(thumbs?: [GrayImage, GrayImage]): Buffer {
  const secretLines = Array.from({ length: 10 }, (_, i) => `Line ${i + 1} names ${WORD} today`);
  const image = (thumb: GrayImage) =>
    `<< /Width ${thumb.width} /Height ${thumb.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${thumb.pixels.length} >>\nstream\n${thumb.pixels.toString('latin1')}\nendstream`;
  return serializePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R 6 0 R] /Count 2 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    page(5, thumbs ? ' /Thumb 8 0 R' : ''),
    stream(lines(secretLines)),
    page(7, thumbs ? ' /Thumb 9 0 R' : ''),
    stream(lines(['Nothing to hide on this page'])),
    ...(thumbs ? thumbs.map(image) : []),
  ]);
}

/**
 * A public line and, in a layer that is off, a line holding the word (Helvetica, so the word is
 * also in the content stream's strings). `state`: how the layer is off — listed in /OFF, or
 * left out of /ON under /BaseState /OFF.
 */
export function hiddenLayerPdf(state: 'off-array' | 'base-state'): Buffer {
  const content = `${lines(['Public line stays'])}\n/OC /L1 BDC\n${lines([`Hidden ${WORD} note`, 'second hidden line'], 660)}\nEMC`;
  const config = state === 'off-array' ? '/OFF [6 0 R]' : '/BaseState /OFF /ON []';
  return serializePdf([
    `<< /Type /Catalog /Pages 2 0 R /OCProperties << /OCGs [6 0 R] /D << /Order [6 0 R] ${config} >> >> >>`,
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    page(5, '', ' /Properties << /L1 6 0 R >>'),
    stream(content),
    '<< /Type /OCG /Name (Notes) >>',
  ]);
}

type JsonObjects = Record<string, { value?: Record<string, unknown>; stream?: { dict: Record<string, unknown> } }>;

function qpdfObjects(pdf: string): JsonObjects {
  const json = JSON.parse(execFileSync('qpdf', ['--json=2', '--json-key=qpdf', pdf], { maxBuffer: 256 * 1024 * 1024 }).toString()) as {
    qpdf: [unknown, JsonObjects];
  };
  return json.qpdf[1];
}

/**
 * `pdf`'s every page wrapped in an optional-content layer that is off, by qpdf (--update-from-json):
 * the page's content streams come between a `/OC /Hidden BDC` stream and an `EMC` stream.
 */
export function hideEveryPage(pdf: string, output: string): void {
  const objects = qpdfObjects(pdf);
  const ids = Object.keys(objects).map((key) => Number(/^obj:(\d+) /.exec(key)?.[1] ?? 0));
  let next = Math.max(...ids) + 1;
  const add = (entry: JsonObjects[string]) => {
    const ref = `${next++} 0 R`;
    patch[`obj:${ref}`] = entry;
    return ref;
  };
  const patch: JsonObjects = {};
  const streamOf = (text: string) => ({ stream: { dict: {}, data: Buffer.from(text).toString('base64') } });
  const ocg = add({ value: { '/Type': '/OCG', '/Name': 'u:Hidden' } });
  const open = add(streamOf('/OC /Hidden BDC\n'));
  const close = add(streamOf('\nEMC\n'));
  for (const [key, entry] of Object.entries(objects)) {
    const dict = entry.value;
    if (dict?.['/Type'] === '/Catalog') patch[key] = { value: { ...dict, '/OCProperties': { '/OCGs': [ocg], '/D': { '/OFF': [ocg], '/Order': [ocg] } } } };
    if (dict?.['/Type'] !== '/Page') continue;
    const contents = Array.isArray(dict['/Contents']) ? dict['/Contents'] : [dict['/Contents']];
    const resources = dict['/Resources'];
    const inline = typeof resources === 'string' ? objects[`obj:${resources}`]?.value : (resources as Record<string, unknown>);
    const withLayer = { ...inline, '/Properties': { ...(inline?.['/Properties'] as object), '/Hidden': ocg } };
    patch[key] = { value: { ...dict, '/Contents': [open, ...contents, close], '/Resources': withLayer } };
  }
  const patchFile = `${output}.json`;
  fs.writeFileSync(
    patchFile,
    JSON.stringify({ qpdf: [{ jsonversion: 2, pushedinheritedpageresources: false, calledgetallpages: false, maxobjectid: next - 1 }, patch] }),
  );
  try {
    execFileSync('qpdf', [pdf, output, `--update-from-json=${patchFile}`]);
  } finally {
    fs.rmSync(patchFile, { force: true });
  }
}

/** The text pdftotext reads once every layer is on: qpdf writes the file uncompressed and each `/OFF` becomes `/ON ` (same length). */
export function textWithLayersOn(pdf: string): string {
  const qdf = `${pdf}.on.pdf`;
  const result = spawnSync('qpdf', ['--qdf', '--object-streams=disable', pdf, qdf]);
  if (result.status !== 0 && result.status !== 3) throw new Error(`qpdf --qdf failed: ${result.stderr.toString()}`);
  try {
    fs.writeFileSync(qdf, fs.readFileSync(qdf, 'latin1').replace(/\/OFF\b/g, '/ON '), 'latin1');
    return execFileSync('pdftotext', [qdf, '-']).toString();
  } finally {
    fs.rmSync(qdf, { force: true });
  }
}

/** Whether some page of `pdf` still has a /Thumb, by qpdf's JSON. */
export function hasThumbnail(pdf: string): boolean {
  return Object.values(qpdfObjects(pdf)).some((entry) => entry.value?.['/Type'] === '/Page' && '/Thumb' in entry.value);
}

/** What tesseract reads in each grey 8-bit image object of `pdf` (decoded by qpdf, upscaled 3× by ImageMagick). */
export function textOfImages(pdf: string, dir: string): string[] {
  const texts: string[] = [];
  for (const [key, entry] of Object.entries(qpdfObjects(pdf))) {
    const dict = entry.stream?.dict;
    if (dict?.['/Subtype'] !== '/Image' || dict['/ColorSpace'] !== '/DeviceGray' || dict['/BitsPerComponent'] !== 8) continue;
    const id = /^obj:(\d+) /.exec(key)?.[1] as string;
    const pixels = execFileSync('qpdf', [`--show-object=${id}`, '--filtered-stream-data', '--decode-level=all', pdf], { maxBuffer: 64 * 1024 * 1024 });
    const pgm = path.join(dir, `image-${id}.pgm`);
    const png = path.join(dir, `image-${id}.png`);
    fs.writeFileSync(pgm, Buffer.concat([Buffer.from(`P5 ${String(dict['/Width'])} ${String(dict['/Height'])} 255\n`), pixels]));
    try {
      execFileSync('convert', [pgm, '-resize', '300%', png]);
      texts.push(execFileSync('tesseract', [png, '-', '--tessdata-dir', DEBIAN_TESSDATA, '-l', 'eng'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString());
    } finally {
      fs.rmSync(pgm, { force: true });
      fs.rmSync(png, { force: true });
    }
  }
  return texts;
}

/**
 * A Word document made by python-docx with a picture drawn by ImageMagick showing `label`, between
 * two lines of text; with `pageBreakBefore`, a first page of text only comes before it.
 */
export function pictureDocx(dir: string, name: string, label: string, pageBreakBefore = false): string {
  const picture = path.join(dir, `${name}.png`);
  execFileSync('convert', [
    '-size',
    '1000x160',
    'xc:white',
    '-font',
    'DejaVu-Sans',
    '-pointsize',
    '64',
    '-fill',
    'black',
    '-annotate',
    '+30+105',
    label,
    picture,
  ]);
  const docx = path.join(dir, `${name}.docx`);
  const script = [
    'import sys, docx',
    'from docx.shared import Inches',
    'd = docx.Document()',
    ...(pageBreakBefore ? ["d.add_paragraph('A first page of text only.')", 'd.add_page_break()'] : []),
    "d.add_paragraph('Report on the sample shipment, see the label below.')",
    'd.add_picture(sys.argv[1], width=Inches(4.5))',
    "d.add_paragraph('End of the report.')",
    'd.save(sys.argv[2])',
  ].join('\n');
  execFileSync(PYTHON, ['-c', script, picture, docx]);
  fs.rmSync(picture);
  return docx;
}

/** What tesseract reads in every image pdfimages takes out of `pdf` (PNG, upscaled 2× by ImageMagick). */
export function textOfPageImages(pdf: string, dir: string): string {
  const prefix = path.join(dir, 'page-image');
  execFileSync('pdfimages', ['-png', pdf, prefix]);
  const images = fs
    .readdirSync(dir)
    .filter((entry) => entry.startsWith('page-image'))
    .map((entry) => path.join(dir, entry));
  try {
    return images
      .map((image) => {
        execFileSync('convert', [image, '-resize', '200%', image]);
        return execFileSync('tesseract', [image, '-', '--tessdata-dir', DEBIAN_TESSDATA, '-l', 'eng'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
      })
      .join('\n');
  } finally {
    for (const image of images) fs.rmSync(image, { force: true });
  }
}
