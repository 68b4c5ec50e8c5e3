// OCR text as blocks: tesseract separates paragraphs by blank lines and keeps the line breaks of
// the page inside them; a paragraph's lines are joined (no space between CJK characters).

import type { RootContent } from 'mdast';
import { joinLines } from '../shared/cjk-text.js';

export function ocrTextBlocks(text: string): RootContent[] {
  return text
    .split(/\n\s*\n/)
    .map((para) => joinLines(para.split('\n').map((l) => l.trim()).filter(Boolean)))
    .filter((para) => para !== '')
    .map((value) => ({ type: 'paragraph', children: [{ type: 'text', value }] }));
}
