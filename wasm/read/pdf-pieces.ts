// Stage 0 of PDF reading: a page's characters into pieces of text. mupdf's own lines join
// everything on one baseline that is close, so two cells of a borderless table a few points
// apart ("参数名称参数说明") come out as one line; here a line is cut wherever the glyphs stand
// apart with no space between them. The pieces are what the later stages see as StextLines.
// Pure functions over plain data, so they are tested on arrays.

import type { StextBlock, StextLine } from './pdf-layout.js';

/** One character as mupdf's walker gives it: its box, baseline, font. */
export interface PageChar {
  c: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** Baseline origin. */
  x: number;
  y: number;
  size: number;
  font: string;
  bold: boolean;
  mono: boolean;
}

/**
 * A gap between two glyphs wider than this many ems, with no space character in it, cuts the
 * line: letters of a word touch (kerning takes a few hundredths of an em), while cells of a
 * borderless table stand apart by their padding (LibreOffice: 0.3 em and more).
 */
const PIECE_GAP = 0.2;
/** A gap wider than this many ems cuts the line even after a space (a space is 0.25–0.35 em, tabs and cell gaps more). */
const WIDE_GAP = 1.5;

/** The pieces of one mupdf line, in the order its characters come. */
export function linePieces(chars: readonly PageChar[], wmode: number): StextLine[] {
  const pieces: PageChar[][] = [];
  let current: PageChar[] = [];
  for (const ch of chars) {
    const previous = current.at(-1);
    if (previous && wmode === 0) {
      const gap = ch.left - previous.right;
      const em = Math.max(previous.size, ch.size);
      const spaced = previous.c === ' ' || ch.c === ' ';
      if (gap > em * (spaced ? WIDE_GAP : PIECE_GAP) || gap < -em * 2) {
        pieces.push(current);
        current = [];
      }
    }
    current.push(ch);
  }
  if (current.length) pieces.push(current);
  return pieces.map((p) => toLine(p, wmode)).filter((l) => l.text.trim() !== '');
}

function toLine(chars: readonly PageChar[], wmode: number): StextLine {
  const first = chars[0] as PageChar;
  const left = Math.min(...chars.map((c) => c.left));
  const top = Math.min(...chars.map((c) => c.top));
  const right = Math.max(...chars.map((c) => c.right));
  const bottom = Math.max(...chars.map((c) => c.bottom));
  const visible = chars.filter((c) => c.c.trim() !== '');
  const mono = visible.length > 0 && visible.every((c) => c.mono);
  const bold = visible.filter((c) => c.bold).length * 2 > visible.length;
  return {
    bbox: { x: left, y: top, w: right - left, h: bottom - top },
    font: { size: first.size, name: (visible[0] ?? first).font, ...(bold && { weight: 'bold' }), ...(mono && { mono: true }) },
    x: first.x,
    y: first.y,
    text: chars.map((c) => c.c).join(''),
    ...(wmode !== 0 && { wmode }),
  };
}

/** Collects a walked page's blocks: text blocks of pieces, other blocks kept as their type. */
export class PieceCollector {
  readonly blocks: StextBlock[] = [];
  private lines: StextLine[] | undefined;
  private chars: PageChar[] = [];
  private wmode = 0;

  beginTextBlock(): void {
    this.lines = [];
  }
  beginLine(wmode: number): void {
    this.chars = [];
    this.wmode = wmode;
  }
  onChar(ch: PageChar): void {
    this.chars.push(ch);
  }
  endLine(): void {
    this.lines?.push(...linePieces(this.chars, this.wmode));
    this.chars = [];
  }
  endTextBlock(): void {
    this.blocks.push({ type: 'text', lines: this.lines ?? [] });
    this.lines = undefined;
  }
  onImageBlock(): void {
    this.blocks.push({ type: 'image' });
  }
}
