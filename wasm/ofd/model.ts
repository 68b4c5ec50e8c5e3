// The OFD document model (GB/T 33190) both outputs are made from: pages in millimetres with
// their objects in drawing order (templates first), each object with its Boundary and CTM, and
// the resources they refer to. Filled by open.ts; drawn by pdf.ts, read as text by
// text.ts.

import type { OfdSignature } from './signatures.js';

/** [a b c d e f]: x' = a·x + c·y + e, y' = b·x + d·y + f (OFD's CTM, PDF's cm). */
export type Matrix = readonly [number, number, number, number, number, number];

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** An sRGB colour, each component 0–1. */
export type Rgb = readonly [number, number, number];

/** A path in an object's own space, arcs already turned into cubic Béziers. */
export type PathSegment =
  { op: 'M' | 'L'; x: number; y: number } | { op: 'C'; points: readonly [number, number, number, number, number, number] } | { op: 'Z' };

interface Placed {
  /** Where the object's space starts on the page (mm), and the clip of what it draws. */
  boundary: Box;
  ctm?: Matrix | undefined;
  /** Clip areas in the object's space; the object draws only inside all of them. */
  clips: PathSegment[][];
}

/** One glyph at its baseline origin in the text object's space. */
export interface Glyph {
  /** Its character; several when a CGTransform draws them as one cluster of glyphs. */
  char: string;
  x: number;
  y: number;
  /** The font's glyph indexes a CGTransform gives for the character(s), drawn instead of the font's own mapping. */
  gids?: number[] | undefined;
}

export interface OfdText extends Placed {
  kind: 'text';
  /** The ID of a font of the document's resources (undefined: none given). */
  font: string | undefined;
  /** Em size in mm. */
  size: number;
  fill: Rgb | undefined;
  glyphs: Glyph[];
}

export interface OfdPath extends Placed {
  kind: 'path';
  segments: PathSegment[];
  fill: Rgb | undefined;
  stroke: Rgb | undefined;
  /** mm. */
  lineWidth: number;
  /** Even-odd fill rule (OFD's Rule="Even-Odd"). */
  evenOdd: boolean;
  /** Dashes and gaps (mm) and where the pattern starts; undefined: a solid line. */
  dash?: { pattern: number[]; offset: number } | undefined;
  /** Line ends and corners as PDF numbers them (0 butt/miter, 1 round, 2 square/bevel). */
  cap: number;
  join: number;
}

export interface OfdImage extends Placed {
  kind: 'image';
  /** The ID of a MultiMedia resource, or an image already in hand (a seal). */
  media: string | { bytes: Uint8Array };
}

/** Objects grouped under their own Boundary/CTM (PageBlock, an annotation's or seal's appearance). */
export interface OfdGroup extends Placed {
  kind: 'group';
  objects: OfdObject[];
}

export type OfdObject = OfdText | OfdPath | OfdImage | OfdGroup;

export interface OfdPage {
  /** PhysicalBox, mm. */
  box: Box;
  /** Templates (background), content, then annotations and seals (foreground), in drawing order. */
  objects: OfdObject[];
}

export interface OfdFont {
  name: string;
  /** The embedded font file, when the document has one and it could be read. */
  file?: Uint8Array | undefined;
}

export interface OfdMedia {
  /** PNG, JPEG, BMP, … as stored; undefined when the file is missing from the package. */
  bytes: Uint8Array | undefined;
  format: string;
}

export interface OfdDocument {
  pages: OfdPage[];
  /** OFD.xml's CustomDatas, name → value, in document order. */
  fields: Record<string, string>;
  fonts: ReadonlyMap<string, OfdFont>;
  media: ReadonlyMap<string, OfdMedia>;
  /** Each signature of the document, checked (signatures.ts). */
  signatures: OfdSignature[];
}

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** `first` then `second` (a point goes through `first`, then through `second`). */
export function multiply(first: Matrix, second: Matrix): Matrix {
  const [a, b, c, d, e, f] = first;
  const [A, B, C, D, E, F] = second;
  return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
}

export const apply = ([a, b, c, d, e, f]: Matrix, x: number, y: number): [number, number] => [a * x + c * y + e, b * x + d * y + f];

/** From an object's space to the page's: its CTM, then the move to its Boundary's corner. */
export const placement = (object: Placed): Matrix => multiply(object.ctm ?? IDENTITY, [1, 0, 0, 1, object.boundary.x, object.boundary.y]);
