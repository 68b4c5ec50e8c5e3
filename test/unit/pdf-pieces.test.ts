// Stage 0 of PDF reading, pieces (pdf-pieces.ts): a piece is named by its first glyph of the
// weight most of it has, so a bold lead ("**AI-Native Integration**: Supports …") does not make
// its line bold, nor a bold heading's code words (`Decompile java.lang.String`) make it code;
// but Chinese after a bold number keeps the number's name (its bold may be drawn, not named); a
// vertical ruling between two touching glyphs (a clipped spreadsheet cell's) cuts the line.

import { describe, expect, it } from 'vitest';
import { linePieces } from '../../wasm/read/pdf-pieces.js';
import { glyphs } from '../helpers/page-glyphs.js';

describe('stage 0, pieces (pdf-pieces.ts)', () => {
  it('names a piece by its first glyph of the weight most of it has, not by its first glyph', () => {
    const lead = glyphs('Key:', 0, 'LiberationSerif-Bold');
    const rest = glyphs(' supports the main clients of the protocol', 20, 'LiberationSerif');
    const [line] = linePieces([...lead, ...rest], 0);
    expect(line?.font.name).toBe('LiberationSerif');
    expect(line?.font.weight).toBeUndefined();
    // Mostly bold, it is named by its bold font.
    const [bold] = linePieces([...glyphs('Supported diagnostic tools', 0, 'LiberationSerif-Bold'), ...glyphs(' (13)', 130, 'LiberationSerif')], 0);
    expect(bold?.font.name).toBe('LiberationSerif-Bold');
    // A bold heading whose second half is a name in bold code: named by its first face.
    const [heading] = linePieces([...glyphs('Decompile ', 0, 'Palatino-Bold'), ...glyphs('java.lang.String', 50, 'Courier-Bold')], 0);
    expect(heading?.font.name).toBe('Palatino-Bold');
    // A bold number before Chinese in a face without bold (drawn thicker, named regular): still named bold.
    const [chinese] = linePieces([...glyphs('1.2 ', 0, 'LiberationSerif-Bold'), ...glyphs('启动名字服务器', 20, 'WenQuanYiZenHei')], 0);
    expect(chinese?.font.name).toBe('LiberationSerif-Bold');
  });

  it('cuts a line where a vertical ruling stands between two touching glyphs, not where one runs above or below it', () => {
    // "CasAI 1": a clipped cell's last letters touch the next cell's first; the ruling is at x = 22.
    const chars = [...glyphs('Cas', 7, 'LiberationSans'), ...glyphs('AI 1', 22, 'LiberationSans')];
    const wall = { at: 22, from: 80, to: 110 };
    // The table's outer borders, left and right of the line.
    const borders = [0, 60].map((at) => ({ ...wall, at }));
    expect(linePieces(chars, 0, false, false, [...borders, wall]).map((l) => l.text)).toEqual(['Cas', 'AI 1']);
    // The clipped cell's last glyph, starting a point before the ruling and drawn across it, stays with its letters.
    expect(linePieces(chars, 0, false, false, [...borders, { ...wall, at: 18 }]).map((l) => l.text)).toEqual(['Cas', 'AI 1']);
    // Text running on past the table's last border, over an empty cell beyond it, stays whole.
    expect(linePieces(chars, 0, false, false, [borders[0] as typeof wall, wall]).map((l) => l.text)).toEqual(['CasAI 1']);
    // A ruling of another row (above the line) cuts nothing.
    expect(linePieces(chars, 0, false, false, [...borders, { at: 22, from: 40, to: 85 }]).map((l) => l.text)).toEqual(['CasAI 1']);
  });
});
