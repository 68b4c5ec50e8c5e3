// Ming (Song) fonts of the Taiwan and Hong Kong tradition — and many Chinese books — centre the
// full stop 。 in its cell. PP-OCRv4 was trained on bottom-left full stops and reads a centred one
// as a middle dot · or a degree sign °, the commonest error on such pages. The glyphs tell them
// apart: a middle dot is a small solid dot, the centred full stop a ring about a third of the
// line tall. A dot or degree sign after a Han character whose ink is that tall is a full stop.

import { LINE_HEIGHT, type LineImage } from './crop.js';
import type { RecognizedLine } from './recognition.js';

const MISREAD_STOPS = new Set(['·', '°', '•', '∘', 'º', '˚']);
const HAN = /\p{Script=Han}/u;
/** A full stop's ring is at least this share of the line image's height; a middle dot is about a tenth. */
const STOP_HEIGHT = 0.2;

export function restoreCentredStops(line: RecognizedLine, image: LineImage): RecognizedLine {
  let changed = false;
  const chars = line.chars.map((char, i) => {
    const before = line.chars[i - 1]?.text ?? '';
    if (!MISREAD_STOPS.has(char.text) || !HAN.test(before)) return char;
    // A fifth of a cell either side of where it was read: the glyph, not its neighbours.
    const reach = (0.2 * LINE_HEIGHT) / image.width;
    if (inkHeight(image, char.centre - reach, char.centre + reach) < STOP_HEIGHT * LINE_HEIGHT) return char;
    changed = true;
    return { ...char, text: '。' };
  });
  return changed ? { ...line, chars, text: chars.map((c) => c.text).join('') } : line;
}

/** Rows with ink (darker than halfway between the line's lightest and darkest) between two fractions of the width. */
function inkHeight({ width, data }: LineImage, from: number, to: number): number {
  let lightest = 0;
  let darkest = 255;
  for (let i = 0; i < width * LINE_HEIGHT; i++) {
    const value = data[i] as number;
    lightest = Math.max(lightest, value);
    darkest = Math.min(darkest, value);
  }
  const threshold = (lightest + darkest) / 2;
  const x0 = Math.max(0, Math.floor(from * width));
  const x1 = Math.min(width, Math.ceil(to * width));
  let top = LINE_HEIGHT;
  let bottom = -1;
  for (let y = 0; y < LINE_HEIGHT; y++) {
    for (let x = x0; x < x1; x++) {
      if ((data[y * width + x] as number) >= threshold) continue;
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
      break;
    }
  }
  return bottom < top ? 0 : bottom - top + 1;
}
