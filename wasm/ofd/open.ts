// Reading an OFD package into the document model: OFD.xml → the first document's Document.xml →
// its resources (fonts, draw params, multimedia), templates and pages, then annotations and the
// seals of its signatures. Untrusted like every input: the zip is read with the office readers'
// caps (package.ts: a bomb is TOO_LARGE), XML with no DTD under one node budget, every location
// resolved inside the package (locations.ts), pages counted, and every object, path operation
// and glyph charged at each use as it is read (budget.ts), before anything is drawn.

import { ApiError } from '../../core/errors.js';
import { formatOfPackage } from '../../core/input-formats.js';
import { openPackage, type PackageLimits } from '../read/package.js';
import { isElement, textOf, xmlNodeBudget, type XmlElement } from '../read/xml.js';
import { directoryOf, OfdParts, resolveLocation } from './locations.js';
import { OfdBudget, pathOperations } from './budget.js';
import type { Box, Glyph, Matrix, OfdDocument, OfdFont, OfdGroup, OfdMedia, OfdObject, OfdPage, OfdPath, PathSegment, Rgb } from './model.js';
import { parsePathData } from './path-data.js';
import { attachedInvoiceFields } from './invoice-attachment.js';
import { parseSealFile, parseSesSignature, type SealPicture } from './seal.js';
import { checkSignatures } from './signatures.js';

/** Pages one OFD may have. */
export const MAX_OFD_PAGES = 10_000;

/** Default line width of paths: 0.353 mm (1 pt), the standard's default. */
const DEFAULT_LINE_WIDTH = 0.353;
const BLACK: Rgb = [0, 0, 0];

/** Names compared without their namespace prefix: writers use ofd:, other prefixes, or none. */
const local = (name: string) => name.slice(name.indexOf(':') + 1);
const kids = (element: XmlElement | undefined, name?: string): XmlElement[] =>
  element ? element.children.filter((c): c is XmlElement => isElement(c) && (name === undefined || local(c.name) === name)) : [];
const kid = (element: XmlElement | undefined, name: string): XmlElement | undefined => kids(element, name)[0];
const kidText = (element: XmlElement | undefined, name: string): string | undefined => {
  const found = kid(element, name);
  return found ? textOf(found).trim() : undefined;
};

/** Is this zip an OFD? As the registry of input formats says (its root holds OFD.xml). */
export const isOfdPackage = (names: readonly string[]): boolean => formatOfPackage(names, undefined)?.kind === 'ofd';

interface DrawParam {
  lineWidth?: number | undefined;
  fill?: Rgb | undefined;
  stroke?: Rgb | undefined;
  dashPattern?: string | undefined;
  dashOffset?: number | undefined;
  cap?: string | undefined;
  join?: string | undefined;
}

/** The elements of a layer or group that draw something. */
const OBJECT_KINDS = new Set(['TextObject', 'PathObject', 'ImageObject', 'CompositeObject', 'PageBlock']);
const CAPS: Readonly<Record<string, number>> = { Butt: 0, Round: 1, Square: 2 };
const JOINS: Readonly<Record<string, number>> = { Miter: 0, Round: 1, Bevel: 2 };

interface Resources {
  fonts: Map<string, OfdFont>;
  media: Map<string, OfdMedia>;
  drawParams: Map<string, { element: XmlElement; relative?: string | undefined }>;
  /** CompositeGraphicUnits by ID: drawings a CompositeObject places like a picture. */
  composites: Map<string, XmlElement>;
}

/**
 * What a seal's own OFD (its picture) shares with the document drawing it: the budget, the
 * resources (its IDs kept apart by a prefix) and the package limits.
 */
interface Nesting {
  budget: OfdBudget;
  resources: Resources;
  prefix: string;
}

/** Bytes a seal's picture, itself an OFD, may decompress to (seals are a few kilobytes). */
const MAX_SEAL_PACKAGE_BYTES = 16 * 1024 * 1024;

class OfdReader {
  private readonly resources: Resources;
  /** Page parts, templates and composites are read once each and charged at every use. */
  private readonly budget: OfdBudget;
  /** Resource parts already loaded: many pages may name the same PageRes. */
  private readonly loaded = new Set<string>();
  /** The page box of each seal drawn from an OFD picture, by signature. */
  private readonly sealBoxes = new Map<string, Box>();
  /** Put before the document's resource IDs and part keys: '' for the document, 'sealN/' for a seal's OFD drawn in it. */
  private readonly prefix: string;

  /** `text`: only what reading needs — text objects, their groups and places (no paths, clips, pictures or seals). */
  constructor(
    private readonly parts: OfdParts,
    private readonly purpose: OfdPurpose,
    private readonly nesting?: Nesting,
  ) {
    this.resources = nesting?.resources ?? { fonts: new Map(), media: new Map(), drawParams: new Map(), composites: new Map() };
    this.budget = nesting?.budget ?? new OfdBudget();
    this.prefix = nesting?.prefix ?? '';
  }

  /** A resource ID of this document as the shared resources hold it. */
  private id(raw: string | undefined): string {
    return this.prefix + (raw ?? '');
  }

  read(): OfdDocument {
    const ofd = this.parts.requiredXml('OFD.xml', 'OFD.xml');
    const body = kid(ofd, 'DocBody');
    const fields = customData(kid(body, 'DocInfo'));
    const documentPart = resolveLocation('', kidText(body, 'DocRoot') ?? '');
    const document = this.parts.requiredXml(documentPart, 'Document.xml (DocRoot)');
    const docDir = directoryOf(documentPart as string);
    // CustomDatas first; the attached invoice XML adds the fields they do not name.
    for (const [name, value] of Object.entries(attachedInvoiceFields(this.parts, documentPart as string, document)))
      if (!Object.hasOwn(fields, name)) fields[name] = value;
    const common = kid(document, 'CommonData');
    for (const name of ['PublicRes', 'DocumentRes']) for (const res of kids(common, name)) this.loadResources(resolveLocation(docDir, textOf(res)));
    const defaultBox = parseBox(kidText(kid(common, 'PageArea'), 'PhysicalBox')) ?? { x: 0, y: 0, width: 210, height: 297 };
    const templates = new Map(kids(common, 'TemplatePage').map((t) => [t.attrs.ID ?? '', resolveLocation(docDir, t.attrs.BaseLoc ?? '')]));
    const pageRefs = kids(kid(document, 'Pages'), 'Page');
    if (pageRefs.length === 0) throw new ApiError('INVALID_INPUT', 'The OFD has no pages');
    if (pageRefs.length > MAX_OFD_PAGES) throw new ApiError('TOO_LARGE', `The OFD has ${pageRefs.length} pages, more than ${MAX_OFD_PAGES}`);
    const pages = pageRefs.map((ref) => this.readPage(resolveLocation(docDir, ref.attrs.BaseLoc ?? ''), defaultBox, templates));
    const pageIndex = new Map(pageRefs.map((ref, i) => [ref.attrs.ID ?? '', i]));
    this.addAnnotations(resolveLocation(docDir, kidText(document, 'Annotations') ?? ''), pageIndex, pages);
    this.found = { signatures: resolveLocation('', kidText(body, 'Signatures') ?? ''), pageIndex, pages };
    // A seal's own OFD draws no seals of its own.
    if (this.purpose === 'draw' && !this.nesting) this.addSeals();
    return { pages, fields, fonts: this.resources.fonts, media: this.resources.media, signatures: [] };
  }

  /** What read() found that seals need: the Signatures list's part, pages by ID, the pages. */
  private found: { signatures: string | undefined; pageIndex: ReadonlyMap<string, number>; pages: OfdPage[] } = {
    signatures: undefined,
    pageIndex: new Map(),
    pages: [],
  };

  /** Each StampAnnot of each signature: its signature's entry (ID, n-th), Signature.xml and folder, its page and box. */
  private *stamps(): Generator<{ n: number; id: string; signature: XmlElement; dir: string; page: OfdPage; boundary: Box }> {
    const { signatures: part, pageIndex, pages } = this.found;
    const list = this.parts.xml(part);
    if (!list || part === undefined) return;
    for (const [n, entry] of kids(list, 'Signature').entries()) {
      const signaturePart = resolveLocation(directoryOf(part), entry.attrs.BaseLoc ?? '');
      const signature = this.parts.xml(signaturePart);
      if (!signature || signaturePart === undefined) continue;
      for (const stamp of kids(kid(signature, 'SignedInfo'), 'StampAnnot')) {
        const page = pages[pageIndex.get(stamp.attrs.PageRef ?? '') ?? -1];
        const boundary = parseBox(stamp.attrs.Boundary);
        if (page && boundary) yield { n, id: entry.attrs.ID ?? '', signature, dir: directoryOf(signaturePart), page, boundary };
      }
    }
  }

  /** For reading: each seal as the text `[seal: name]` at its stamp's place (`sealNames`: signature ID → its seal's name). */
  addSealMarkers(sealNames: ReadonlyMap<string, string>): void {
    for (const { id, page, boundary } of this.stamps()) {
      const name = sealNames.get(id);
      if (name === undefined) continue;
      const size = Math.max(1, boundary.height / 4);
      const glyphs = [{ char: `[seal: ${name}]`, x: 0, y: boundary.height / 2 }];
      page.objects.push({ kind: 'text', boundary, clips: [], font: undefined, size, fill: BLACK, glyphs });
    }
  }

  private loadResources(part: string | undefined): void {
    if (part === undefined || this.loaded.has(part)) return;
    this.loaded.add(part);
    const res = this.parts.xml(part);
    if (!res) return;
    const base = resolveLocation(directoryOf(part), res.attrs.BaseLoc ?? '') ?? directoryOf(part);
    for (const font of kids(kid(res, 'Fonts'), 'Font')) {
      const file = kidText(font, 'FontFile');
      this.resources.fonts.set(this.id(font.attrs.ID), {
        name: font.attrs.FontName ?? font.attrs.FamilyName ?? '',
        file: file ? this.parts.bytes(resolveLocation(base, file)) : undefined,
      });
    }
    for (const media of kids(kid(res, 'MultiMedias'), 'MultiMedia')) {
      const file = kidText(media, 'MediaFile') ?? '';
      this.resources.media.set(this.id(media.attrs.ID), {
        bytes: this.parts.bytes(resolveLocation(base, file)),
        format: (media.attrs.Format ?? file.split('.').pop() ?? '').toLowerCase(),
      });
    }
    for (const param of kids(kid(res, 'DrawParams'), 'DrawParam'))
      this.resources.drawParams.set(this.id(param.attrs.ID), { element: param, relative: param.attrs.Relative });
    for (const unit of kids(kid(res, 'CompositeGraphicUnits'), 'CompositeGraphicUnit')) this.resources.composites.set(this.id(unit.attrs.ID), unit);
  }

  private readPage(part: string | undefined, defaultBox: Box, templates: ReadonlyMap<string, string | undefined>): OfdPage {
    const page = this.parts.requiredXml(part, 'page content');
    for (const res of kids(page, 'PageRes')) this.loadResources(resolveLocation(directoryOf(part as string), textOf(res)));
    const box = parseBox(kidText(kid(page, 'Area'), 'PhysicalBox')) ?? defaultBox;
    const objects = this.budget.page(`page ${this.prefix}${part}`, () => {
      const background: OfdObject[] = [];
      const foreground: OfdObject[] = [];
      for (const use of kids(page, 'Template'))
        (use.attrs.ZOrder === 'Foreground' ? foreground : background).push(...this.template(templates.get(use.attrs.TemplateID ?? '')));
      return [...background, ...this.layers(kid(page, 'Content')), ...foreground];
    });
    // A copy: annotations and seals are added to this page alone.
    return { box, objects: [...objects] };
  }

  /** A template's objects: an invoice book's pages all draw the same few templates. */
  private template(part: string | undefined): OfdObject[] {
    if (part === undefined) return [];
    const key = `template ${this.prefix}${part}`;
    return this.budget.reused(key, key, () => this.layers(kid(this.parts.xml(part), 'Content')));
  }

  /** The objects of a Content: its layers in order (a Background layer first, Foreground last). */
  private layers(content: XmlElement | undefined): OfdObject[] {
    const order = { Background: 0, Body: 1, Foreground: 2 } as Record<string, number>;
    const layers = kids(content, 'Layer').sort((a, b) => (order[a.attrs.Type ?? 'Body'] ?? 1) - (order[b.attrs.Type ?? 'Body'] ?? 1));
    return layers.flatMap((layer) => this.objects(layer, this.purpose === 'text' ? {} : this.drawParam(layer.attrs.DrawParam)));
  }

  private objects(container: XmlElement, inherited: DrawParam): OfdObject[] {
    const objects: OfdObject[] = [];
    for (const element of kids(container)) {
      const object = this.object(element, inherited);
      if (object) objects.push(object);
    }
    return objects;
  }

  private object(element: XmlElement, inherited: DrawParam): OfdObject | undefined {
    const name = local(element.name);
    if (element.attrs.Visible === 'false' || !OBJECT_KINDS.has(name)) return undefined;
    // Charged before its path data is parsed, and when reading too: reading costs what drawing would.
    this.budget.spend(1 + pathOperations(name === 'PathObject' ? (kidText(element, 'AbbreviatedData') ?? '') : '') + clipOperations(element));
    if (this.purpose === 'text' && name !== 'TextObject' && name !== 'PageBlock' && name !== 'CompositeObject') return undefined;
    const param = this.purpose === 'text' ? inherited : { ...inherited, ...definedOnly(this.drawParam(element.attrs.DrawParam)) };
    if (name === 'PageBlock')
      return { kind: 'group', boundary: { x: 0, y: 0, width: 0, height: 0 }, clips: [], objects: this.budget.group(() => this.objects(element, param)) };
    const boundary = parseBox(element.attrs.Boundary);
    if (!boundary) return undefined;
    const placed = { boundary, ctm: parseMatrix(element.attrs.CTM), clips: this.purpose === 'text' ? [] : this.clips(element) };
    if (name === 'TextObject') return this.text(element, placed, param);
    if (name === 'PathObject') return this.path(element, placed, param);
    if (name === 'ImageObject') return { kind: 'image', ...placed, media: this.id(element.attrs.ResourceID) };
    if (name === 'CompositeObject') return this.composite(element, placed, param);
    return undefined;
  }

  /** A CompositeObject: its unit's objects, in the unit's space, placed by the object's CTM and Boundary. */
  private composite(element: XmlElement, placed: Pick<OfdGroup, 'boundary' | 'ctm' | 'clips'>, param: DrawParam): OfdGroup | undefined {
    const id = this.id(element.attrs.ResourceID);
    const unit = this.resources.composites.get(id);
    // Alpha 0 is wholly transparent (ofdrw's testPathClip lays such a picture over its page).
    if (!unit || element.attrs.Alpha?.trim() === '0') return undefined;
    // Its objects depend on the draw parameters it inherits: read once for each.
    const objects = this.budget.reused(`composite graphic unit ${id}`, `composite ${id} ${JSON.stringify(param)}`, () =>
      this.budget.group(() => {
        const content = kid(unit, 'Content');
        return content ? this.objects(content, param) : [];
      }),
    );
    return { kind: 'group', ...placed, objects };
  }

  private text(element: XmlElement, placed: Pick<OfdGroup, 'boundary' | 'ctm' | 'clips'>, param: DrawParam): OfdObject | undefined {
    const size = Number(element.attrs.Size);
    if (!(size > 0)) return undefined;
    const glyphs: Glyph[] = [];
    const transforms = glyphTransforms(element);
    let x = 0;
    let y = 0;
    // Characters of the object before this TextCode: CGTransform's CodePosition counts across them.
    let offset = 0;
    for (const code of kids(element, 'TextCode')) {
      const text = textOf(code);
      // Charged before the text is split: a TextCode of millions of characters stops here.
      this.budget.spend(text.length);
      const chars = [...text];
      x = optionalNumber(code.attrs.X) ?? x;
      y = optionalNumber(code.attrs.Y) ?? y;
      const dx = deltas(code.attrs.DeltaX, chars.length);
      const dy = deltas(code.attrs.DeltaY, chars.length);
      let cluster: Glyph | undefined;
      let clusterEnd = 0;
      for (const [i, char] of chars.entries()) {
        const transform = transforms.get(offset + i);
        if (transform) {
          cluster = { char, x, y, gids: transform.glyphs };
          clusterEnd = i + Math.max(1, transform.codeCount);
          glyphs.push(cluster);
        } else if (cluster && i < clusterEnd) cluster.char += char;
        else glyphs.push({ char, x, y });
        // Without a DeltaX the next glyph follows at a full em for CJK, half an em otherwise.
        x += dx[i] ?? (/[\u2e80-\uffef]/.test(char) ? size : size / 2);
        y += dy[i] ?? 0;
      }
      offset += chars.length;
    }
    const fill = element.attrs.Fill === 'false' ? undefined : (color(kid(element, 'FillColor')) ?? param.fill ?? BLACK);
    return { kind: 'text', ...placed, font: element.attrs.Font === undefined ? undefined : this.id(element.attrs.Font), size, fill, glyphs };
  }

  private path(element: XmlElement, placed: Pick<OfdPath, 'boundary' | 'ctm' | 'clips'>, param: DrawParam): OfdPath {
    const segments = parsePathData(kidText(element, 'AbbreviatedData') ?? '');
    const stroke = element.attrs.Stroke === 'false' ? undefined : (color(kid(element, 'StrokeColor')) ?? param.stroke ?? BLACK);
    const fill = element.attrs.Fill === 'true' ? (color(kid(element, 'FillColor')) ?? param.fill ?? BLACK) : undefined;
    const lineWidth = optionalNumber(element.attrs.LineWidth) ?? param.lineWidth ?? DEFAULT_LINE_WIDTH;
    const dashes = numbers(element.attrs.DashPattern ?? param.dashPattern).filter((n) => Number.isFinite(n) && n >= 0);
    // A pattern of no length (all zeros) would be an invalid PDF dash array: drawn solid.
    const dash = dashes.some((n) => n > 0) ? { pattern: dashes, offset: optionalNumber(element.attrs.DashOffset) ?? param.dashOffset ?? 0 } : undefined;
    const cap = CAPS[element.attrs.Cap ?? param.cap ?? 'Butt'] ?? 0;
    const join = JOINS[element.attrs.Join ?? param.join ?? 'Miter'] ?? 0;
    return { kind: 'path', ...placed, segments, stroke, fill, lineWidth, evenOdd: element.attrs.Rule === 'Even-Odd', dash, cap, join };
  }

  /** Clip areas, each in the object's space (an Area's own CTM applied). */
  private clips(element: XmlElement): PathSegment[][] {
    const clips: PathSegment[][] = [];
    for (const clip of kids(kid(element, 'Clips'), 'Clip')) {
      for (const area of kids(clip, 'Area')) {
        const path = kid(area, 'Path');
        const data = kidText(path, 'AbbreviatedData');
        if (data === undefined) continue;
        const ctm = parseMatrix(area.attrs.CTM);
        clips.push(ctm ? transformSegments(parsePathData(data), ctm) : parsePathData(data));
      }
    }
    return clips;
  }

  /** A DrawParam resource with those it is relative to filled in (a cycle stops the chain). */
  private drawParam(id: string | undefined): DrawParam {
    const chain: XmlElement[] = [];
    const seen = new Set<string>();
    for (let next = id; next !== undefined && !seen.has(next);) {
      seen.add(next);
      const found = this.resources.drawParams.get(this.id(next));
      if (!found) break;
      chain.unshift(found.element);
      next = found.relative;
    }
    return chain.reduce<DrawParam>(
      (param, element) => ({
        ...param,
        ...definedOnly({
          lineWidth: optionalNumber(element.attrs.LineWidth),
          fill: color(kid(element, 'FillColor')),
          stroke: color(kid(element, 'StrokeColor')),
          dashPattern: element.attrs.DashPattern,
          dashOffset: optionalNumber(element.attrs.DashOffset),
          cap: element.attrs.Cap,
          join: element.attrs.Join,
        }),
      }),
      {},
    );
  }

  /** Annotations' appearances, drawn over their page's content. */
  private addAnnotations(part: string | undefined, pageIndex: ReadonlyMap<string, number>, pages: OfdPage[]): void {
    const list = this.parts.xml(part);
    if (!list || part === undefined) return;
    for (const entry of kids(list, 'Page')) {
      const page = pages[pageIndex.get(entry.attrs.PageID ?? '') ?? -1];
      const annotsPart = resolveLocation(directoryOf(part), kidText(entry, 'FileLoc') ?? '');
      const annots = this.parts.xml(annotsPart);
      if (!page || !annots) continue;
      for (const annot of kids(annots, 'Annot')) {
        if (annot.attrs.Visible === 'false') continue;
        for (const appearance of kids(annot, 'Appearance')) {
          const boundary = parseBox(appearance.attrs.Boundary) ?? { x: 0, y: 0, width: page.box.width, height: page.box.height };
          page.objects.push({ kind: 'group', boundary, ctm: parseMatrix(appearance.attrs.CTM), clips: [], objects: this.objects(appearance, {}) });
        }
      }
    }
  }

  /** Each signature's seal picture, at its stamp's place. */
  private addSeals(): void {
    const pictures = new Map<number, SealPicture | undefined>();
    for (const { n, signature, dir, page, boundary } of this.stamps()) {
      if (!pictures.has(n)) pictures.set(n, this.sealPicture(signature, dir));
      const picture = pictures.get(n);
      const drawn = picture && this.sealObject(picture, boundary, `seal${n}`);
      if (drawn) page.objects.push(drawn);
    }
  }

  /** The seal's picture: from its signature value (SES_Signature), else from the seal file (Seal.esl) the signature names. */
  private sealPicture(signature: XmlElement, dir: string): SealPicture | undefined {
    const value = this.parts.bytes(resolveLocation(dir, kidText(signature, 'SignedValue') ?? ''));
    const fromValue = value ? parseSesSignature(value)?.picture : undefined;
    if (fromValue) return fromValue;
    const sealFile = kidText(kid(kid(signature, 'SignedInfo'), 'Seal'), 'BaseLoc');
    const seal = sealFile ? this.parts.bytes(resolveLocation(dir, sealFile)) : undefined;
    return seal ? parseSealFile(seal) : undefined;
  }

  /** A seal drawn in `boundary`: a picture fills it; an OFD picture's first page is drawn into it, scaled. */
  private sealObject(picture: SealPicture, boundary: Box, key: string): OfdObject | undefined {
    // An image object fills its unit square: the CTM scales it to the stamp's size.
    if (!isZip(picture.bytes))
      return { kind: 'image', boundary, ctm: [boundary.width, 0, 0, boundary.height, 0, 0], clips: [], media: { bytes: picture.bytes } };
    // Read once however many stamps show it, and charged at each (a seal on every page of 10,000).
    const objects = this.budget.reused(`seal ${key}`, `seal ${key}`, () => this.sealOfd(picture.bytes, key));
    const box = this.sealBoxes.get(key);
    if (!box || !(box.width > 0) || !(box.height > 0)) return undefined;
    const sx = boundary.width / box.width;
    const sy = boundary.height / box.height;
    return { kind: 'group', boundary, ctm: [sx, 0, 0, sy, -box.x * sx, -box.y * sy], clips: [], objects };
  }

  /** The first page of a seal's own OFD, read with this document's budget and resources (its IDs prefixed); [] when it is not a readable OFD. */
  private sealOfd(bytes: Uint8Array, key: string): OfdObject[] {
    try {
      const pkg = openPackage(bytes, () => true, { maxTotalBytes: MAX_SEAL_PACKAGE_BYTES, maxEntries: 1000 });
      if (!isOfdPackage(pkg.names)) return [];
      const seal = new OfdReader(new OfdParts(pkg, xmlNodeBudget()), 'draw', { budget: this.budget, resources: this.resources, prefix: `${key}/` }).read();
      const first = seal.pages[0];
      if (first) this.sealBoxes.set(key, first.box);
      return first?.objects ?? [];
    } catch (error) {
      // Budgets hold for the seal as for the page; a seal that is not a readable OFD is left out.
      if (error instanceof ApiError && error.code === 'TOO_LARGE') throw error;
      return [];
    }
  }
}

const isZip = (bytes: Uint8Array): boolean => bytes[0] === 0x50 && bytes[1] === 0x4b;

/**
 * What an OFD is read for: `draw` (to PDF: every object, fonts, pictures and seals) or `text`
 * (reading: only its XML is inflated and only text objects are kept — paths, clips, pictures and
 * seals cost a reader time, mostly as code it would otherwise run cold in a fresh worker).
 */
export type OfdPurpose = 'draw' | 'text';

/** Reads an OFD file into the document model, with what `purpose` needs, its signatures checked. */
export function readOfd(bytes: Uint8Array, purpose: OfdPurpose, limits?: PackageLimits): OfdDocument {
  const pkg = openPackage(bytes, purpose === 'draw' ? () => true : (name) => /\.xml$/i.test(name), limits);
  if (!isOfdPackage(pkg.names)) throw new ApiError('INVALID_INPUT', 'The zip is not an OFD (no OFD.xml at its root)');
  const parts = new OfdParts(pkg, xmlNodeBudget());
  const reader = new OfdReader(parts, purpose);
  const document = reader.read();
  const signatures = resolveLocation('', kidText(kid(parts.xml('OFD.xml'), 'DocBody'), 'Signatures') ?? '');
  if (signatures === undefined) return document;
  // A signature covers pictures and fonts too, which reading leaves packed: a signed OFD is opened whole to check them.
  const whole =
    purpose === 'draw'
      ? parts
      : new OfdParts(
          openPackage(bytes, () => true, limits),
          xmlNodeBudget(),
        );
  const checked = checkSignatures(whole, signatures);
  // Reading shows each seal where it is stamped, by name.
  if (purpose === 'text') reader.addSealMarkers(new Map(checked.flatMap((s) => (s.sealName === null ? [] : [[s.id, s.sealName] as const]))));
  return { ...document, signatures: checked };
}

/**
 * A TextObject's CGTransforms by the position of their first character in the object's text:
 * `CodeCount` characters drawn as the font's glyphs `Glyphs` (the last of several at one place wins, as in ofdrw).
 */
function glyphTransforms(element: XmlElement): Map<number, { codeCount: number; glyphs: number[] }> {
  const transforms = new Map<number, { codeCount: number; glyphs: number[] }>();
  for (const transform of kids(element, 'CGTransform')) {
    const glyphs = numbers(kidText(transform, 'Glyphs')).filter((g) => Number.isInteger(g) && g >= 0 && g < 65536);
    const position = Number(transform.attrs.CodePosition ?? 0);
    if (glyphs.length === 0 || !Number.isInteger(position) || position < 0) continue;
    const codeCount = Math.max(1, Math.floor(Number(transform.attrs.CodeCount ?? 1)) || 1);
    // One glyph a character (the usual case): each keeps its own place (DeltaX), not the font's advance.
    if (codeCount === glyphs.length) glyphs.forEach((glyph, k) => transforms.set(position + k, { codeCount: 1, glyphs: [glyph] }));
    else transforms.set(position, { codeCount, glyphs });
  }
  return transforms;
}

/** Path operations of an object's clip areas. */
function clipOperations(element: XmlElement): number {
  let count = 0;
  for (const clip of kids(kid(element, 'Clips'), 'Clip'))
    for (const area of kids(clip, 'Area')) count += pathOperations(kidText(kid(area, 'Path'), 'AbbreviatedData') ?? '');
  return count;
}

function customData(info: XmlElement | undefined): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const data of kids(kid(info, 'CustomDatas'), 'CustomData')) {
    const name = data.attrs.Name?.trim();
    if (name && !Object.hasOwn(fields, name)) fields[name] = textOf(data).trim();
  }
  return fields;
}

const numbers = (text: string | undefined): number[] =>
  (text ?? '')
    .trim()
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);

function optionalNumber(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

function parseBox(text: string | undefined): Box | undefined {
  const [x, y, width, height] = numbers(text);
  if ([x, y, width, height].some((v) => v === undefined || !Number.isFinite(v))) return undefined;
  return { x: x as number, y: y as number, width: width as number, height: height as number };
}

function parseMatrix(text: string | undefined): Matrix | undefined {
  const values = numbers(text);
  return values.length === 6 && values.every(Number.isFinite) ? (values as unknown as Matrix) : undefined;
}

/** DeltaX/DeltaY: numbers, where "g N v" stands for v repeated N times; at most `count` are kept. */
function deltas(text: string | undefined, count: number): number[] {
  const tokens = (text ?? '')
    .trim()
    .split(/[\s,]+/)
    .filter(Boolean);
  const values: number[] = [];
  for (let i = 0; i < tokens.length && values.length < count; i++) {
    if (tokens[i] === 'g') {
      const repeat = Number(tokens[i + 1]);
      const value = Number(tokens[i + 2]);
      i += 2;
      if (!Number.isFinite(repeat) || !Number.isFinite(value)) break;
      for (let k = 0; k < repeat && values.length < count; k++) values.push(value);
    } else {
      const value = Number(tokens[i]);
      if (!Number.isFinite(value)) break;
      values.push(value);
    }
  }
  return values;
}

/** A colour's Value as RGB 0–1: 3 components RGB, 1 gray, 4 CMYK; "#hh" components are hex. */
function color(element: XmlElement | undefined): Rgb | undefined {
  // A shading (not drawn as such yet) is painted flat in its first segment's colour, not its Value's.
  const shading = kids(element).find((k) => ['AxialShd', 'RadialShd'].includes(local(k.name)));
  const first = kid(kid(shading, 'Segment'), 'Color');
  if (first) return color(first);
  const value = element?.attrs.Value;
  if (value === undefined) return undefined;
  const parts = value
    .trim()
    .split(/\s+/)
    .map((p) => (p.startsWith('#') ? parseInt(p.slice(1), 16) : Number(p)) / 255);
  if (parts.some((p) => !Number.isFinite(p))) return undefined;
  const c = parts.map((p) => Math.min(1, Math.max(0, p)));
  if (c.length === 1) return [c[0] as number, c[0] as number, c[0] as number];
  if (c.length === 3) return c as unknown as Rgb;
  if (c.length === 4) {
    const [cy, m, ye, k] = c as [number, number, number, number];
    return [(1 - cy) * (1 - k), (1 - m) * (1 - k), (1 - ye) * (1 - k)];
  }
  return undefined;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function transformSegments(segments: PathSegment[], [a, b, c, d, e, f]: Matrix): PathSegment[] {
  const t = (x: number, y: number): [number, number] => [a * x + c * y + e, b * x + d * y + f];
  return segments.map((s) => {
    if (s.op === 'Z') return s;
    if (s.op === 'C') {
      const [x1, y1, x2, y2, x3, y3] = s.points;
      return { op: 'C', points: [...t(x1, y1), ...t(x2, y2), ...t(x3, y3)] as [number, number, number, number, number, number] };
    }
    const [x, y] = t(s.x, s.y);
    return { op: s.op, x, y };
  });
}
