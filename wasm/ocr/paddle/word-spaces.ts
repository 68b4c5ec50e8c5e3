// PP-OCR's Chinese recognition model has a space class, but in a line padded to a wider batch
// it often loses to CTC's blank between two English words ("pullrequest", "InEnglish"): the
// space is still there, only not the likeliest class. Between two characters of Latin text,
// a space whose probability rose above SPACE_EVIDENCE anywhere in between is a word space.
// Measured on Chinese pages with English in them (test/helpers/ocr-page-set.ts MIXED_PAGES)
// and on the English pages: every lost space came back at any threshold from 0.01 to 0.3, no
// false one appeared; 0.4 already missed some. Gaps between the characters' time steps
// (spaces where the pitch widens) added more false spaces than they found.

import { isCjkCharacter } from '../../../core/cjk-text.js';
import type { RecognizedChar, RecognizedLine } from './recognition.js';

const SPACE_EVIDENCE = 0.05;
const LATIN = /^[\p{Script=Latin}0-9]$/u;

/** The line with a space wherever the model saw one between two pieces of Latin text. */
export function restoreWordSpaces(line: RecognizedLine): RecognizedLine {
  const chars: RecognizedChar[] = [];
  line.chars.forEach((char, i) => {
    const before = line.chars[i - 1];
    if (before && char.spaceBefore > SPACE_EVIDENCE && betweenLatinWords(before.text, char.text)) {
      const at = (before.to + char.from) / 2;
      chars.push({ text: ' ', from: before.to, to: char.from, centre: at, spaceBefore: 0 });
    }
    chars.push(char);
  });
  if (chars.length === line.chars.length) return line;
  return { ...line, text: chars.map((c) => c.text).join(''), chars };
}

/** Neither is a space or CJK, and at least one is a Latin letter or digit ("spring,and"). */
function betweenLatinWords(left: string, right: string): boolean {
  if (left.trim() === '' || right.trim() === '' || isCjkCharacter(left) || isCjkCharacter(right)) return false;
  return LATIN.test(left) || LATIN.test(right);
}
