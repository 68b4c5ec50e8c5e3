// PDF reading, part of stage 6 (headings): a heading's section number and how deep it is. Many
// manuals set their headings in the body's font and size, the number being all that marks them
// (`2.3.1 Installing the unit`), and many number every level, so the number also tells the level
// where sizes do not (Chinese manuals: 第一章 → 第一节, 一、 → （一） → 1. → （1）).

/** Chinese numerals a section number is written in. */
const HAN_NUMERAL = '[一二三四五六七八九十百零〇两]+';

/** Chinese numbering by depth (GB/T 9704's sequence and chapter/section words). */
const CHINESE_DEPTHS: readonly [RegExp, number][] = [
  [new RegExp(`^第${HAN_NUMERAL}[章篇部]\\s*`), 1],
  [new RegExp(`^第${HAN_NUMERAL}节\\s*`), 2],
  [new RegExp(`^${HAN_NUMERAL}[、．]\\s*`), 1],
  [new RegExp(`^[（(]${HAN_NUMERAL}[）)]\\s*`), 2],
];

/** `1.2.3` or `1.2.3.` before a title: two parts or more, each at most three digits. */
const DOTTED = /^(\d{1,3}(?:\.\d{1,3})+)\.?\s+(?=\p{L})/u;
/**
 * `1` or `1.` before a title, only where something else sets the line apart ("1. Install" is also
 * a list item): a chapter, or in Chinese the third level, under 一、 and （一）.
 */
const SINGLE = /^\d{1,2}[.、]?\s*(?=\p{L})/u;
const HAN = /^\d{1,2}[.、]?\s*\p{Script=Han}/u;

/**
 * The depth of a heading's section number (`2.3.1 …` → 3, `第一章` → 1, `（一）` → 2), or
 * undefined when the text does not start with one. `sectionOnly`: only numbers no list item
 * starts with (two parts or more, or Chinese numbering) — what a line in the body's weight needs
 * to be read as a heading by its number alone.
 */
export function sectionDepth(text: string, sectionOnly = false): number | undefined {
  const dotted = DOTTED.exec(text);
  if (dotted) return (dotted[1] as string).split('.').length;
  const chinese = CHINESE_DEPTHS.find(([pattern]) => pattern.test(text))?.[1];
  if (chinese !== undefined || sectionOnly) return chinese;
  if (SINGLE.test(text)) return HAN.test(text) ? 3 : 1;
  return undefined;
}
