// Where OCR found the words of an image: the OCR worker produces it, the PDF worker turns it
// into an invisible text layer. Coordinates are pixels of the recognised image, y downwards.

/** [x0, y0, x1, y1] in pixels. */
export type PixelBox = [number, number, number, number];

export interface OcrWord {
  text: string;
  box: PixelBox;
}

export interface OcrLine {
  box: PixelBox;
  /** y of the baseline at the line's left and right ends. */
  baseline: [number, number];
  words: OcrWord[];
}

/** One recognised image and where it sits: the words of `lines` are placed on it. */
export interface OcrPageLayout {
  /** Size of the recognised image in pixels. */
  width: number;
  height: number;
  lines: OcrLine[];
}

/** A page on which OCR found no line. */
export const NO_LINES: OcrPageLayout = { width: 0, height: 0, lines: [] };
