// Stage 0 of PDF reading, right-to-left lines (pdf-bidi.ts): a line drawn word by word from the
// left (Chrome's Skia), or glyph by glyph from the left, read in logical order by where its
// glyphs stand; a line drawn in logical order (LibreOffice) read as it comes.

import { describe, expect, it } from 'vitest';
import { drawnInVisualOrder, isRightToLeftLine, logicalOrder, type PlacedChar } from '../../wasm/read/pdf-bidi.js';
import { linePieces, PieceCollector, type PageChar } from '../../wasm/read/pdf-pieces.js';

/** Glyphs 6 points wide with a 3-point space between words, placed as a right-to-left line shows `logical`, its left-to-right runs left to right. */
function laidOut(visualWords: readonly string[]): PlacedChar[][] {
  // visualWords: the words from the left edge of the line, each as its letters read left to right on the page.
  let x = 0;
  return visualWords.map((word) =>
    [...word].map((c) => {
      const glyph = { c, left: x, right: x + 6 };
      x += 6;
      return glyph;
    }),
  );
}

const text = (chars: readonly PlacedChar[]) => chars.map((c) => c.c).join('');
const reversed = (s: string) => [...s].reverse().join('');
const spaceAfter = (word: PlacedChar[]): PlacedChar[] => {
  const last = word.at(-1) as PlacedChar;
  return [...word, { c: ' ', left: last.right, right: last.right + 3 }];
};
const apart = (a: PlacedChar, b: PlacedChar) => Math.max(b.left - a.right, a.left - b.right) > 1;

// On the page, from the left: يوم كل (React Native) محمد يكتب — each Arabic word's letters right to
// left, and the brackets, which belong to the right-to-left text, mirrored: the glyph at the run's
// left is the closing bracket's.
const LOGICAL = 'يكتب محمد (React Native) كل يوم';
const FROM_LEFT = [reversed('يوم'), reversed('كل'), ')React', 'Native(', reversed('محمد'), reversed('يكتب')];

describe('right-to-left lines (pdf-bidi.ts)', () => {
  it('reads a line drawn word by word from the left in logical order, a left-to-right run and its brackets kept', () => {
    const words = laidOut(FROM_LEFT).map(spaceAfter);
    // Chrome: the words from the left, each Arabic word's letters in logical order (right to left on the page).
    const stream = words.flatMap((w) => (isRightToLeftLine(w) ? [...w.slice(0, -1)].reverse().concat(w.slice(-1)) : w));
    expect(drawnInVisualOrder(stream, apart)).toBe(true);
    expect(text(logicalOrder(stream)).trim()).toBe(LOGICAL);
  });

  it('reads a line drawn glyph by glyph from the left the same way', () => {
    const stream = laidOut(FROM_LEFT).map(spaceAfter).flat();
    expect(drawnInVisualOrder(stream, apart)).toBe(true);
    expect(text(logicalOrder(stream)).trim()).toBe(LOGICAL);
  });

  it('keeps a line drawn in logical order as it comes, even where its base direction is left to right', () => {
    // LibreOffice, a heading in a left-to-right paragraph: the Arabic run at the left, `null` at its right.
    const [run, name] = [laidOut([reversed('يكتب محمد')])[0] as PlacedChar[], { c: 'null', left: 200, right: 224 }];
    const stream = [...run].reverse().concat([{ c: ' ', left: 190, right: 200 }, name]);
    expect(isRightToLeftLine(stream)).toBe(true);
    expect(drawnInVisualOrder(stream, apart)).toBe(false);
  });

  it('puts a combining mark after its letter where both stand at one place, whichever the stream drew first', () => {
    const stream = [
      { c: 'ك', left: 12, right: 18 },
      { c: 'ّ', left: 6, right: 12 },
      { c: 'و', left: 6, right: 12 },
      { c: 'ن', left: 0, right: 6 },
    ];
    expect(text(logicalOrder(stream))).toBe('ك' + 'و' + '\u0651' + 'ن');
  });

  it('reads Arabic-Indic and Persian digits inside a right-to-left line left to right, as a number is written', () => {
    // On the page, from the left: سال ۱۴۰۲ در (Persian digits) and عام ١٢ في (Arabic-Indic), drawn glyph by glyph from the left.
    for (const [logical, fromLeft] of [
      ['در سال ۱۴۰۲', ['۱۴۰۲', reversed('سال'), reversed('در')]],
      ['في عام ١٢ و 34', ['34', reversed('و'), '١٢', reversed('عام'), reversed('في')]],
    ] as const) {
      const stream = laidOut(fromLeft).map(spaceAfter).flat();
      expect(drawnInVisualOrder(stream, apart)).toBe(true);
      expect(text(logicalOrder(stream)).trim()).toBe(logical);
    }
  });

  it('reads the lam-alef ligature lam first where its alef stands without width at the lam’s edge (Chrome)', () => {
    // تعاملات and لا, as Chrome's Skia draws them: each word's glyphs in logical order, the ligature's
    // glyph mapped to alef (no width, at the glyph's right edge) then lam (the glyph's box).
    const glyphs = (word: readonly [string, number, number][]) => word.map(([c, left, right]) => ({ c, left, right }));
    const taamolat = glyphs([
      ['ت', 337, 340],
      ['ع', 331, 337],
      ['ا', 327, 331],
      ['م', 321, 327],
      ['ا', 321, 321],
      ['ل', 314, 321],
      ['ت', 303, 314],
    ]);
    const la = glyphs([
      ['ا', 300, 300],
      ['ل', 293, 300],
    ]);
    const stream = [...la, { c: ' ', left: 300, right: 303 }, ...taamolat];
    expect(drawnInVisualOrder(stream, apart)).toBe(true);
    expect(text(logicalOrder(stream))).toBe('تعاملات لا');
    // An alef with its own width beside a lam is two letters, read by position: ال.
    expect(
      text(
        logicalOrder(
          glyphs([
            ['ل', 10, 16],
            ['ا', 16, 19],
          ]),
        ),
      ),
    ).toBe('ال');
  });

  it('reads a lam-alef followed by a lam once in order: خلال, not خللا (the alef put in order is not a ligature’s again)', () => {
    // خلال as Chrome draws it: خ, the ligature (alef without width at its right edge, then lam), lam.
    const khilal = [
      { c: 'خ', left: 109.7, right: 117.1 },
      { c: 'ا', left: 109.7, right: 109.7 },
      { c: 'ل', left: 102.6, right: 109.7 },
      { c: 'ل', left: 93.8, right: 102.6 },
    ];
    expect(text(logicalOrder(khilal))).toBe('خلال');
    // Ordered twice, as a line read by position is (its word spaces are found between the two): the same.
    expect(text(logicalOrder(logicalOrder(khilal)))).toBe('خلال');
    expect(text(logicalOrder([{ c: 'م', left: 120, right: 126 }, { c: ' ', left: 117.1, right: 120 }, ...khilal]))).toBe('م خلال');
  });

  it('reads the article’s alef that Chrome maps to a space after a lone و, before a lam-alef ligature: والانضباط, not و لانضباط', () => {
    // As Chrome's print gives them (mupdf, from the stream): the article's alef a space as wide as the alef, the ligature's alef without width at its lam's edge.
    const glyphs = (list: [string, number, number][]) => list.map(([c, left, right]) => ({ c, left, right }));
    const word = glyphs([
      ['و', 381.0, 386.8],
      [' ', 377.7, 381.0],
      ['ا', 377.7, 377.7],
      ['ل', 370.8, 377.7],
      ['ن', 367.5, 370.8],
    ]);
    const before = glyphs([
      ['ت', 389.8, 393.4],
      [' ', 386.8, 389.8],
    ]);
    expect(text(logicalOrder([...before, ...word]))).toBe('ت والان');
    expect(text(logicalOrder(word))).toBe('والان');
    // The walk that reads a page's characters for its pieces has no space there: only the alef's room.
    expect(text(logicalOrder(word.filter((c) => c.c !== ' ')))).toBe('والان');
    // A space after a word that ends in و is a word space: لا after it stands alone.
    const afterWord = glyphs([
      ['ه', 392.0, 397.8],
      ['و', 386.8, 392.0],
    ]);
    expect(text(logicalOrder([...afterWord, ...word.slice(1)]))).toBe('هو لان');
  });

  it('keeps a number’s sign with its digits and a bracket pair inside its left-to-right run (W5, N0)', () => {
    // Set in a right-to-left paragraph, from the left: `;font-size: 100%` and `;x = list[index]`.
    for (const [logical, fromLeft] of [
      ['font-size: 100%;', ';font-size: 100%'],
      ['x = list[index];', ';x = list[index]'],
      // A closing bracket before neutrals whose pair holds left-to-right letters: the pair and the neutrals between are the run's (N0, N1).
      ['button { margin-left: 5px; }', 'button { margin-left: 5px; }'],
      ['onChange={e => setName(e.target.value)}', 'onChange={e => setName(e.target.value)}'],
      ['عدد 50% هنا', [reversed('هنا'), '50%', reversed('عدد')].join(' ')],
    ] as const) {
      const stream = laidOut([fromLeft]).flat();
      expect(text(logicalOrder(stream))).toBe(logical);
    }
  });

  it('reads numbers joined by a dash or spaces in a right-to-left line from the right, each number left to right (W4, N1)', () => {
    // Set in a right-to-left paragraph, from the left: the second number of a range stands left of the first.
    for (const [logical, fromLeft] of [
      ['שישי 09:00–13:00', ['13:00–09:00', reversed('שישי')].join(' ')],
      ['שנים 2024 - 2025', ['2025 - 2024', reversed('שנים')].join(' ')],
      // One separator between digits is inside the number (a thousands comma, a time's colon, a phone number's hyphen).
      ['מנויים 3,250 חדשים', [reversed('חדשים'), '3,250', reversed('מנויים')].join(' ')],
      ['טלפון 03-1234567', ['03-1234567', reversed('טלפון')].join(' ')],
      // A number beside Latin letters runs with them, as before.
      ['גרסה Windows 10 - 11', ['Windows 10 - 11', reversed('גרסה')].join(' ')],
    ] as const) {
      const stream = laidOut([fromLeft]).flat();
      expect(text(logicalOrder(stream))).toBe(logical);
    }
  });

  it('does not take a step across a left-to-right run for visual order (a heading in a left-to-right paragraph, LibreOffice)', () => {
    // تمرير JSX كأطفال set left to right: the first Arabic word at the left, the last at the right, each in logical order.
    const [first, latin, last] = laidOut([reversed('تمرير'), 'JSX', reversed('كأطفال')]).map(spaceAfter);
    const stream = [...(first as PlacedChar[])].reverse().concat(latin as PlacedChar[], [...(last as PlacedChar[])].reverse());
    expect(drawnInVisualOrder(stream, apart)).toBe(false);
  });

  it('reads a line of Latin letters set in a right-to-left paragraph with its closing punctuation at its end, on a right-to-left page only', () => {
    // Chrome draws `let index = 0;` of a right-to-left page's code as `;let index = 0`, left to right.
    const placed = (visual: string): PageChar[] =>
      [...visual].map((c, i) => ({
        c,
        left: 100 + i * 6,
        right: 106 + i * 6,
        top: 90,
        bottom: 102,
        x: 100 + i * 6,
        y: 100,
        size: 10,
        font: 'DejaVuSansMono',
        bold: false,
        mono: true,
      }));
    const read = (visual: string, rightToLeftPage: boolean) => linePieces(placed(visual), 0, rightToLeftPage).map((l) => l.text);
    expect(read(';let index = 0', true)).toEqual(['let index = 0;']);
    expect(read(':Then, replace this line', true)).toEqual(['Then, replace this line:']);
    // On a left-to-right page, or without closing punctuation at its left, the line is read as it stands.
    expect(read(';let index = 0', false)).toEqual([';let index = 0']);
    expect(read('(see above) and more', true)).toEqual(['(see above) and more']);
    // A line of code in a flush-right block is a right-to-left paragraph of its own, whatever stands at its left.
    const flushRight = (visual: string, mono = true) =>
      linePieces(
        placed(visual).map((c) => ({ ...c, mono })),
        0,
        true,
        true,
      ).map((l) => l.text);
    expect(flushRight('{ )(function MyComponent')).toEqual(['function MyComponent() {']);
    expect(flushRight('use memo"; // Opt in"')).toEqual(['"use memo"; // Opt in']);
    expect(flushRight('}))')).toEqual(['))}']);
    // A symbol in a comment comes from another face than the code around it.
    const withEmoji = placed('Good ✅ //').map((c) => ({ ...c, mono: c.c !== '✅' }));
    expect(linePieces(withEmoji, 0, true, true).map((l) => l.text)).toEqual(['// ✅ Good']);
    // A line of prose there is read as it stands: its ends may belong to the lines around it (`= ...` runs on to the next line).
    expect(flushRight('splice, arr[i] = ...', false)).toEqual(['splice, arr[i] = ...']);
  });

  it('reads LibreOffice’s lam-alef lam first in a line drawn in logical order', () => {
    // الأولى as LibreOffice draws it: in logical order, the ligature's alef first, without width at the lam's right edge.
    const glyph = (c: string, left: number, right: number): PageChar => ({
      c,
      left,
      right,
      top: 90,
      bottom: 102,
      x: left,
      y: 100,
      size: 10,
      font: 'DejaVuSans',
      bold: false,
      mono: false,
    });
    const stream = [
      glyph('ا', 339, 343.8),
      glyph('أ', 339, 339),
      glyph('ل', 328.6, 339),
      glyph('و', 319.9, 328.6),
      glyph('ل', 314.6, 319.8),
      glyph('ى', 300.4, 314.6),
    ];
    expect(linePieces(stream, 0).map((l) => l.text)).toEqual(['الأولى']);
  });

  it('reads the lines of a flush-right block on a right-to-left page by position, though Chrome draws their runs from the left (Hebrew)', () => {
    // Each glyph 6 points wide; a right-to-left run's letters drawn in logical order from its right edge, a number left to right.
    const glyph = (c: string, left: number): PageChar => ({
      c,
      left,
      right: left + 6,
      top: 90,
      bottom: 102,
      x: left,
      y: 100,
      size: 10,
      font: 'LiberationSerif',
      bold: false,
      mono: false,
    });
    const hebrew = (text: string, right: number) => [...text].map((c, i) => glyph(c, right - 6 * (i + 1)));
    const latin = (text: string, left: number) => [...text].map((c, i) => glyph(c, left + 6 * i));
    // אבג דהו 2021 זחט, set right to left from x = 276: the runs drawn from the left, as Chrome does.
    const first = [...hebrew('זחט', 198), ...latin(' 2021 ', 198), ...hebrew('אבג דהו', 276)];
    const read = (second: PageChar[]) => {
      const collector = new PieceCollector({ rightToLeft: true, left: 100, right: 300 });
      collector.beginTextBlock();
      // The second line on the next baseline.
      for (const line of [first, second.map((c) => ({ ...c, y: 114, top: 104, bottom: 116 }))]) {
        collector.beginLine(0);
        for (const ch of line) collector.onChar(ch);
        collector.endLine();
      }
      collector.endTextBlock();
      return collector.blocks[0]?.lines?.map((l) => l.text);
    };
    expect(read(hebrew('סוף', 276))).toEqual(['אבג דהו 2021 זחט', 'סוף']);
    // A row of a table on one line (Chrome's print of a Hebrew table): its cells stand apart, pieces from the right.
    const cells = [...latin('13:00–09:00', 150), ...hebrew('שישי', 276)];
    expect(read(cells)).toEqual(['אבג דהו 2021 זחט', 'שישי', '09:00–13:00']);
    // A combining mark whose box stands off its letter stays on it (Arabic's shadda).
    const marked = [...hebrew('אב', 276), { ...glyph('\u0651', 250), right: 252 }];
    expect(read(marked)?.[1]).toBe('אב\u0651');
    // The same lines in a flush-left block (a left-to-right paragraph): read as they come.
    expect(read(hebrew('סוף', 174 + 18))?.[0]).toBe('זחט 2021 אבג דהו');
  });
});
