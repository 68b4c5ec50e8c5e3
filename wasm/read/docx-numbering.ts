// Word's numbering (word/numbering.xml): which list levels are ordered, and the labels Word shows
// in front of numbered paragraphs ("2.1.1"), counted the way Word counts them — one counter per
// level of an abstract numbering shared by the lists that use it, deeper levels restarting when
// a shallower one advances, a level skipped over shown at its start value.

import { child, childElements, type XmlElement } from './xml.js';

interface LevelDefinition {
  ordered: boolean;
  /** w:numFmt: decimal, lowerLetter, upperRoman, bullet, … */
  format: string;
  /** w:lvlText: "%1.%2." — each %n is level n's counter in level n's format. */
  text: string;
  start: number;
}

interface NumberingInstance {
  abstractId: string;
  levels: Map<number, LevelDefinition>;
}

export class Numbering {
  private readonly instances = new Map<string, NumberingInstance>();
  /** abstract numbering id → counter of each level (undefined: not started since its reset). */
  private readonly counters = new Map<string, (number | undefined)[]>();

  constructor(root: XmlElement | undefined) {
    if (!root) return;
    const abstract = new Map(childElements(root, 'w:abstractNum').map((def) => [attr(def, 'w:abstractNumId') ?? '', levelsOf(def)] as const));
    for (const num of childElements(root, 'w:num')) {
      const abstractId = attr(child(num, 'w:abstractNumId'), 'w:val') ?? '';
      const levels = abstract.get(abstractId);
      if (levels) this.instances.set(attr(num, 'w:numId') ?? '', { abstractId, levels });
    }
  }

  /** Whether list `numId` exists (numId 0 means "no numbering"). */
  has(numId: string): boolean {
    return this.instances.has(numId);
  }

  isOrdered(numId: string, level: number): boolean {
    return this.instances.get(numId)?.levels.get(level)?.ordered ?? false;
  }

  /** Counts one paragraph at `level` of list `numId` and answers the label Word shows for it. */
  advance(numId: string, level: number): string {
    const instance = this.instances.get(numId);
    if (!instance || level < 0 || level > 8) return '';
    const counters = this.counters.get(instance.abstractId) ?? [];
    this.counters.set(instance.abstractId, counters);
    const startOf = (l: number) => instance.levels.get(l)?.start ?? 1;
    for (let l = 0; l < level; l++) counters[l] ??= startOf(l);
    counters[level] = counters[level] === undefined ? startOf(level) : (counters[level] as number) + 1;
    counters.length = level + 1;
    const own = instance.levels.get(level);
    if (!own?.ordered) return '';
    return own.text.replace(/%([1-9])/g, (_, n: string) => {
      const l = Number(n) - 1;
      return formatNumber(counters[l] ?? startOf(l), instance.levels.get(l)?.format ?? 'decimal');
    });
  }
}

const attr = (element: XmlElement | undefined, name: string): string | undefined => element?.attrs[name];

function levelsOf(def: XmlElement): Map<number, LevelDefinition> {
  const levels = new Map<number, LevelDefinition>();
  for (const lvl of childElements(def, 'w:lvl')) {
    const format = attr(child(lvl, 'w:numFmt'), 'w:val') ?? 'decimal';
    levels.set(Number(attr(lvl, 'w:ilvl') ?? 0), {
      ordered: format !== 'bullet' && format !== 'none',
      format,
      text: attr(child(lvl, 'w:lvlText'), 'w:val') ?? '',
      start: Number(attr(child(lvl, 'w:start'), 'w:val') ?? 1) || 0,
    });
  }
  return levels;
}

const ROMAN: readonly [number, string][] = [
  [1000, 'm'],
  [900, 'cm'],
  [500, 'd'],
  [400, 'cd'],
  [100, 'c'],
  [90, 'xc'],
  [50, 'l'],
  [40, 'xl'],
  [10, 'x'],
  [9, 'ix'],
  [5, 'v'],
  [4, 'iv'],
  [1, 'i'],
];

function formatNumber(n: number, format: string): string {
  // Letters and roman numerals for the numbers they are made for; a hostile start value is decimal.
  if (n <= 0 || n >= 4000) return String(n);
  switch (format) {
    case 'lowerLetter':
    case 'upperLetter': {
      // Word repeats the letter past z: 27 → aa, 28 → bb.
      const letter = String.fromCharCode(97 + ((n - 1) % 26)).repeat(Math.floor((n - 1) / 26) + 1);
      return format === 'upperLetter' ? letter.toUpperCase() : letter;
    }
    case 'lowerRoman':
    case 'upperRoman': {
      let rest = n;
      let roman = '';
      for (const [value, digits] of ROMAN) for (; rest >= value; rest -= value) roman += digits;
      return format === 'upperRoman' ? roman.toUpperCase() : roman;
    }
    case 'decimalZero':
      return String(n).padStart(2, '0');
    default:
      return String(n);
  }
}
