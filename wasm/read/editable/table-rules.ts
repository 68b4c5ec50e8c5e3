// A ruled table's lines as the PDF draws them: the colour and width of most of its rules, and a
// row boundary drawn heavier (Word's table styles rule a header off with a 1½-pt line under it).
// Written in black half-point lines, the rules stood out darker than a style's light blue, and
// each heavier rule's row came out a point short (LibreOffice makes a row as tall as its text and
// its borders): every line under a header rose by that, a point a table.

import { BorderStyle, type IBorderOptions, type ITableBordersOptions, type ITableCellBorders } from 'docx';
import type { GridRules, Pen } from '../pdf-grid-geometry.js';

/** A border's width in Word's eighths of a point, within what Word draws (¼ pt to 12 pt). */
const [LEAST_EIGHTHS, MOST_EIGHTHS] = [2, 96];
/** Points a row boundary's rule must be heavier than the usual one's to be drawn so. */
const HEAVIER_BY = 0.25;

/** A pen as a border: its colour in hex, its width in eighths of a point. */
function border(pen: Pen): IBorderOptions {
  const hex = pen.color
    .split(',')
    .map((v) =>
      Math.round(Math.min(1, Math.max(0, Number(v))) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')
    .toUpperCase();
  const eighths = Math.min(MOST_EIGHTHS, Math.max(LEAST_EIGHTHS, Math.round(pen.weight * 8)));
  return { style: BorderStyle.SINGLE, size: eighths, color: hex };
}

/** The table's borders, all in its usual pen. */
export function tableBorders(rules: GridRules): ITableBordersOptions {
  const usual = border(rules.usual);
  return { top: usual, bottom: usual, left: usual, right: usual, insideHorizontal: usual, insideVertical: usual };
}

/** A heavier rule at a row boundary (0: the table's top), or undefined. */
function heavierAt(rules: GridRules, boundary: number): IBorderOptions | undefined {
  const pen = rules.rows[boundary];
  return pen && pen.weight >= rules.usual.weight + HEAVIER_BY ? border(pen) : undefined;
}

/**
 * A cell's own borders where the rule under it (spanning `rowSpan` rows from `row`), or over it in
 * the first row, is heavier than the table's: a rule between two rows is the upper cell's bottom
 * only, as LibreOffice makes room for each cell's own.
 */
export function cellBorders(rules: GridRules, row: number, rowSpan: number): ITableCellBorders | undefined {
  const [top, bottom] = [row === 0 ? heavierAt(rules, 0) : undefined, heavierAt(rules, row + rowSpan)];
  return top || bottom ? { ...(top && { top }), ...(bottom && { bottom }) } : undefined;
}
