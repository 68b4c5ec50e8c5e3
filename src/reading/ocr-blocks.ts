// OCR text as blocks: tesseract separates paragraphs by blank lines and keeps the line breaks of
// the page inside them; a paragraph's lines are joined (no space between CJK characters).

import type { RootContent } from 'mdast';

const CJK = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/u;

export function ocrTextBlocks(text: string): RootContent[] {
  return text
    .split(/\n\s*\n/)
    .map((para) => joinLines(para.split('\n').map((l) => l.trim()).filter(Boolean)))
    .filter((para) => para !== '')
    .map((value) => ({ type: 'paragraph', children: [{ type: 'text', value }] }));
}

function joinLines(lines: readonly string[]): string {
  let out = '';
  for (const line of lines) {
    if (!out) out = line;
    else if (/[A-Za-z]-$/.test(out) && /^[a-z]/.test(line)) out = out.slice(0, -1) + line;
    else if (CJK.test(out.slice(-1)) && CJK.test(line.charAt(0))) out += line;
    else out += ` ${line}`;
  }
  return out;
}
