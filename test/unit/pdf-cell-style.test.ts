// Italic table cells in PDFs (pdf-piece-style.ts, blocks.ts textCells), by the code spans'
// mechanism: a piece every letter of which the character walk finds italic is styled; a cell made
// up wholly of such pieces (one, or a wrapped cell's lines) is written *italic*; an italic text
// standing inside a longer cell, or met plain in another cell, styles nothing; a whole cell's bold
// is not kept, but bold and italic words inside a piece set otherwise are, as **bold** and *italic*.

import { describe, expect, it } from 'vitest';
import { table, textCells } from '../../wasm/read/blocks.js';
import { emphasisOf, styledTexts } from '../../wasm/read/pdf-piece-style.js';
import { linePieces } from '../../wasm/read/pdf-pieces.js';
import { glyphs } from '../helpers/page-glyphs.js';
import { blocksToHtml, renderedBlocks } from '../../wasm/read/render.js';

const markdown = (rows: readonly string[][], styles: ReturnType<typeof styledTexts>) =>
  [
    ...renderedBlocks([
      table(
        rows.map((row) => textCells(row, styles)),
        blocksToHtml,
      ),
    ]),
  ].join('\n');

describe('italic table cells in PDFs', () => {
  it('marks a piece italic only where every letter of it is, whatever its punctuation', () => {
    const [italic] = linePieces(glyphs('string', 0, 'LiberationSerif-BoldItalic'), 0);
    expect(italic?.font).toMatchObject({ everyItalic: true });
    const [quoted] = linePieces([...glyphs('«', 0, 'LiberationSerif'), ...glyphs('number', 5, 'LiberationSerif-Italic')], 0);
    expect(quoted?.font).toMatchObject({ everyItalic: true });
    // Mostly italic is no italic cell.
    const [mixed] = linePieces([...glyphs('maximum', 0, 'LiberationSerif-Italic'), ...glyphs(' size', 35, 'LiberationSerif')], 0);
    expect(mixed?.font.everyItalic).toBeUndefined();
  });

  it('writes a cell set wholly in italic, a wrapped one too, as *italic*; a longer cell and code as before', () => {
    const styles = styledTexts([
      { text: 'Option' },
      { text: 'string', italic: true },
      { text: 'The hour of the day at which', italic: true },
      { text: 'old files are removed', italic: true },
      { text: '--dir', code: true },
      { text: 'path', code: true, italic: true },
    ]);
    expect(
      markdown(
        [
          ['Option', 'Kind'],
          ['storePath', 'string'],
          ['The hour of the day at which old files are removed', 'path'],
          // An italic text inside a longer cell says nothing of it.
          ['a string', 'string --dir'],
        ],
        styles,
      ),
    ).toBe(
      [
        '| Option | Kind |',
        '| - | - |',
        '| storePath | *string* |',
        '| *The hour of the day at which old files are removed* | *`path`* |',
        '| a string | string `--dir` |',
      ].join('\n'),
    );
  });

  it('styles a text only where every piece of it was so: italic in one cell and plain in another is plain', () => {
    const styles = styledTexts([{ text: 'yes', italic: true }, { text: ' yes ' }, { text: 'no', italic: true, code: true }, { text: 'no' }]);
    expect(styles.get('yes')).toBeUndefined();
    expect(styles.get('no')).toEqual({ code: true });
  });

  it('keeps the bold and italic words of a piece set otherwise, in its text as a cell has it', () => {
    const chars = [
      ...glyphs('  watch ', 0, 'LiberationSerif'),
      ...glyphs('before', 40, 'LiberationSerif-Bold'),
      ...glyphs(' the ', 70, 'LiberationSerif'),
      ...glyphs('method call', 95, 'LiberationSerif-Italic'),
      ...glyphs('  ', 150, 'LiberationSerif'),
    ];
    const emphasis = emphasisOf(chars);
    expect(emphasis).toEqual([
      { start: 6, end: 12, bold: true },
      { start: 17, end: 28, italic: true },
    ]);
    const [piece] = linePieces(chars, 0);
    expect(piece?.emphasis).toEqual(emphasis);
    // Every letter bold: the table's style, no emphasis.
    expect(emphasisOf(glyphs('Claim #', 0, 'LiberationSerif-Bold'))).toEqual([]);
    const styles = styledTexts([
      { text: piece?.text ?? '', emphasis },
      { text: '[b]', code: true },
    ]);
    expect(
      markdown(
        [
          ['Option', 'Effect'],
          ['[b]', 'watch before the method call'],
        ],
        styles,
      ).split('\n')[2],
    ).toBe('| `[b]` | watch **before** the *method call* |');
    // The same text in another cell of another piece set plain: the emphasis is that piece's alone.
    expect(styledTexts([{ text: 'watch before the method call', emphasis }, { text: 'watch before the method call' }]).size).toBe(0);
  });

  it('finds a piece’s emphasis in a wrapped cell’s text, the piece whole and standing apart', () => {
    const styles = styledTexts([
      { text: 'watch before the method is ', emphasis: [{ start: 6, end: 12, bold: true }] },
      { text: '在函数调用之前', emphasis: [{ start: 1, end: 7, bold: true }] },
      { text: 'a stop', emphasis: [{ start: 2, end: 6, bold: true }] },
    ]);
    expect(
      markdown(
        [
          ['Option', 'Effect'],
          ['b', 'watch before the method is called'],
          ['c', '在函数调用之前观察'],
          // "a stop" inside another word is not that piece.
          ['d', 'via stop'],
        ],
        styles,
      )
        .split('\n')
        .slice(2),
    ).toEqual(['| b | watch **before** the method is called |', '| c | 在**函数调用之前**观察 |', '| d | via stop |']);
  });
});
