// OFD → PDF with mupdf: each page at its PhysicalBox (mm → pt), its objects painted in order
// into one content stream, one painter per object kind as ofdrw's converter does. The page's
// transform flips OFD's y-down millimetres into PDF's y-up points once; every object then draws
// in its own space under its placement (CTM, then Boundary's corner), clipped by its Clips.
// Text is placed glyph by glyph (Tm per glyph) with the document's embedded font where it has
// the glyph, else a shipped Liberation face for Latin characters (metric-compatible with the font
// the OFD names, wasm/ofd/faces.ts) or mupdf's built-in CJK face, all embedded as CID fonts with a
// ToUnicode map, so text extraction reads the characters. A substitute glyph is fitted to the
// advance the OFD gives it, so no gap opens inside a word (pdftotext reads words whole).

import * as mupdf from 'mupdf';
import { ApiError } from '../../core/errors.js';
import { placement, type Matrix, type OfdDocument, type OfdImage, type OfdObject, type OfdPath, type OfdText, type PathSegment, type Rgb } from './model.js';
import { latinFaceFile, latinFaceFor, type LatinFace } from './faces.js';
import { save, withNewDocument } from '../pdf/mupdf-document.js';
import type { PdfSink } from '../pdf/engine.js';
import { utf16Hex } from '../pdf/text-layer.js';

const PT_PER_MM = 72 / 25.4;

const num = (value: number): string => (Math.abs(value) < 1e-9 ? '0' : String(Number(value.toFixed(5))));
const matrix = (m: Matrix): string => `${m.map(num).join(' ')} cm`;
const rgb = (color: Rgb, operator: 'rg' | 'RG'): string => `${color.map(num).join(' ')} ${operator}`;

let fallbackFont: mupdf.Font | undefined;
/** mupdf's built-in Droid Sans Fallback: Latin, Greek, Cyrillic and CJK (see ../pdf/tools/watermark-font.ts). */
const fallback = () => (fallbackFont ??= new mupdf.Font('zh-Hans'));

const LATIN_FONT_NAMES: Readonly<Record<LatinFace, string>> = { sans: 'LiberationSans', serif: 'LiberationSerif', mono: 'LiberationMono' };
const latinFonts = new Map<LatinFace, mupdf.Font>();
/** A shipped Liberation face, loaded once per worker. */
const latinFont = (face: LatinFace): mupdf.Font => {
  let font = latinFonts.get(face);
  if (!font) {
    font = new mupdf.Font(LATIN_FONT_NAMES[face], latinFaceFile(face));
    latinFonts.set(face, font);
  }
  return font;
};

/** Characters of the CJK blocks (and fullwidth forms) are the CJK face's, whatever the font's name. */
const isCjk = (code: number) => code >= 0x2e80;

/**
 * The horizontal scale that makes a substitute glyph fill the advance the OFD gives it (to the
 * next glyph on its baseline): pdftotext breaks a word where a gap of a tenth of an em opens. A
 * gap or overlap past three times the glyph's own width is the document's spacing: kept.
 */
function fitScale(advance: number | undefined, natural: number): number {
  if (advance === undefined || !(natural > 0) || Math.abs(advance - natural) <= 0.03) return 1;
  const ratio = advance / natural;
  return ratio >= 1 / 3 && ratio <= 3 ? ratio : 1;
}

/** What a page's content stream names: fonts and images, each added to the document once. */
class PageResources {
  readonly fonts = new Map<string, mupdf.PDFObject>();
  readonly images = new Map<string, mupdf.PDFObject>();
}

class OfdPainter {
  private readonly fontRefs = new Map<mupdf.Font, mupdf.PDFObject>();
  private readonly embedded = new Map<string, mupdf.Font | undefined>();
  private readonly imageRefs = new Map<string | Uint8Array, mupdf.PDFObject | undefined>();

  constructor(
    private readonly pdf: mupdf.PDFDocument,
    private readonly ofd: OfdDocument,
    private readonly maxPixels: number,
  ) {}

  addPage(index: number): void {
    const page = this.ofd.pages[index];
    if (!page) return;
    const { box } = page;
    const width = box.width * PT_PER_MM;
    const height = box.height * PT_PER_MM;
    const resources = new PageResources();
    const out: string[] = [`q ${matrix([PT_PER_MM, 0, 0, -PT_PER_MM, -box.x * PT_PER_MM, height + box.y * PT_PER_MM])}`];
    this.paint(page.objects, out, resources);
    out.push('Q');
    const dict = {
      Font: Object.fromEntries([...resources.fonts].map(([name, ref]) => [name, ref])),
      XObject: Object.fromEntries([...resources.images].map(([name, ref]) => [name, ref])),
    };
    const pageObject = this.pdf.addPage([0, 0, width, height], 0, this.pdf.addObject(dict), out.join('\n'));
    this.pdf.insertPage(-1, pageObject);
  }

  private paint(objects: readonly OfdObject[], out: string[], resources: PageResources): void {
    for (const object of objects) {
      out.push('q', matrix(placement(object)));
      for (const clip of object.clips) out.push(`${pathOps(clip)} W n`);
      if (object.kind === 'group') this.paint(object.objects, out, resources);
      else if (object.kind === 'text') this.text(object, out, resources);
      else if (object.kind === 'path') path(object, out);
      else this.image(object, out, resources);
      out.push('Q');
    }
  }

  private text(object: OfdText, out: string[], resources: PageResources): void {
    if (!object.fill || object.glyphs.length === 0) return;
    const own = this.embeddedFont(object.font);
    const latin = latinFont(latinFaceFor(this.ofd.fonts.get(object.font ?? '')?.name ?? '').face);
    out.push(rgb(object.fill, 'rg'), 'BT');
    let current: string | undefined;
    for (const [i, glyph] of object.glyphs.entries()) {
      const code = glyph.char.codePointAt(0) ?? 0;
      const ownGid = own ? own.encodeCharacter(code) : 0;
      // A CGTransform names the document's font's own glyphs: they are what the page shows.
      const given = own && glyph.gids ? glyph.gids : undefined;
      const latinGid = given || ownGid > 0 || isCjk(code) ? 0 : latin.encodeCharacter(code);
      const font = given || ownGid > 0 ? (own as mupdf.Font) : latinGid > 0 ? latin : fallback();
      const gids = given ?? [ownGid > 0 ? ownGid : latinGid > 0 ? latinGid : fallback().encodeCharacter(code)];
      const next = object.glyphs[i + 1];
      const advance = next && next.y === glyph.y && !/\s/.test(glyph.char) ? (next.x - glyph.x) / object.size : undefined;
      // The document's own glyphs keep their own widths; a substitute is fitted to the OFD's advance.
      const scale = given || ownGid > 0 ? 1 : fitScale(advance, font.advanceGlyph(gids[0] as number, 0));
      const name = this.fontName(font, resources);
      if (name !== current) {
        out.push(`/${name} 1 Tf`);
        current = name;
      }
      // The font's own map may not lead from those glyphs back to the characters, a cluster drawn
      // as its first character holds more, and a character no face has (Thai, Tamil … in a font
      // the document only names) is drawn as the empty box: each is said as ActualText.
      const said =
        given !== undefined
          ? given.length !== 1 || given[0] !== ownGid || [...glyph.char].length !== 1
          : [...glyph.char].length !== 1 || (gids[0] === 0 && !/\s/.test(glyph.char));
      if (said) out.push(`/Span <</ActualText <FEFF${utf16Hex(glyph.char)}>>> BDC`);
      // y-down page space: the glyph is flipped back upright by the -size.
      out.push(
        `${num(object.size * scale)} 0 0 ${num(-object.size)} ${num(glyph.x)} ${num(glyph.y)} Tm <${gids.map((gid) => gid.toString(16).padStart(4, '0')).join('')}> Tj`,
      );
      if (said) out.push('EMC');
    }
    out.push('ET');
  }

  /** The document's own font file for a font ID, once loaded; undefined when it has none or mupdf cannot read it. */
  private embeddedFont(id: string | undefined): mupdf.Font | undefined {
    if (id === undefined) return undefined;
    if (!this.embedded.has(id)) {
      const font = this.ofd.fonts.get(id);
      let loaded: mupdf.Font | undefined;
      try {
        loaded = font?.file ? new mupdf.Font(font.name || `F${id}`, font.file) : undefined;
      } catch {
        loaded = undefined;
      }
      this.embedded.set(id, loaded);
    }
    return this.embedded.get(id);
  }

  private fontName(font: mupdf.Font, resources: PageResources): string {
    let ref = this.fontRefs.get(font);
    if (!ref) {
      ref = this.pdf.addFont(font);
      this.fontRefs.set(font, ref);
    }
    const name = `F${[...this.fontRefs.keys()].indexOf(font)}`;
    resources.fonts.set(name, ref);
    return name;
  }

  private image(object: OfdImage, out: string[], resources: PageResources): void {
    const key = typeof object.media === 'string' ? object.media : object.media.bytes;
    if (!this.imageRefs.has(key))
      this.imageRefs.set(key, this.addImage(typeof object.media === 'string' ? this.ofd.media.get(object.media)?.bytes : object.media.bytes));
    const ref = this.imageRefs.get(key);
    if (!ref) return;
    const name = `Im${[...this.imageRefs.keys()].indexOf(key)}`;
    resources.images.set(name, ref);
    // An image fills its object's unit square; PDF puts its first row at y = 1, OFD at y = 0.
    out.push(`1 0 0 -1 0 1 cm /${name} Do`);
  }

  /** An image resource, or undefined when it is missing or no decoder reads it (the page is drawn without it). */
  private addImage(bytes: Uint8Array | undefined): mupdf.PDFObject | undefined {
    if (!bytes) return undefined;
    let image: mupdf.Image;
    try {
      image = new mupdf.Image(bytes);
    } catch {
      return undefined;
    }
    try {
      if (image.getWidth() * image.getHeight() > this.maxPixels) {
        throw new ApiError(
          'TOO_LARGE',
          `An image of the OFD is ${image.getWidth()} × ${image.getHeight()} pixels, over the ${this.maxPixels.toLocaleString('en-US')}-pixel limit (--max-pixels)`,
        );
      }
      return this.pdf.addImage(image);
    } finally {
      image.destroy();
    }
  }
}

function path(object: OfdPath, out: string[]): void {
  if (object.segments.length === 0 || (!object.fill && !object.stroke)) return;
  if (object.fill) out.push(rgb(object.fill, 'rg'));
  if (object.stroke) {
    out.push(rgb(object.stroke, 'RG'), `${num(object.lineWidth)} w ${object.cap} J ${object.join} j`);
    if (object.dash) out.push(`[${object.dash.pattern.map(num).join(' ')}] ${num(object.dash.offset)} d`);
  }
  const paint = object.fill && object.stroke ? 'B' : object.fill ? 'f' : 'S';
  out.push(`${pathOps(object.segments)} ${object.fill && object.evenOdd ? `${paint}*` : paint}`);
}

function pathOps(segments: readonly PathSegment[]): string {
  return segments
    .map((s) => {
      if (s.op === 'Z') return 'h';
      if (s.op === 'C') return `${s.points.map(num).join(' ')} c`;
      return `${num(s.x)} ${num(s.y)} ${s.op === 'M' ? 'm' : 'l'}`;
    })
    .join(' ');
}

/** Writes the OFD as a PDF into `sink`; fonts are subset to the glyphs the pages use. */
export function ofdToPdf(ofd: OfdDocument, maxPixels: number, sink: PdfSink): void {
  withNewDocument((pdf) => {
    const painter = new OfdPainter(pdf, ofd, maxPixels);
    for (let i = 0; i < ofd.pages.length; i++) painter.addPage(i);
    pdf.subsetFonts();
    save(pdf, 'compress,garbage=compact', sink);
  });
}
