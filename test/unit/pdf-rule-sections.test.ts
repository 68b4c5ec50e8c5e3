// Text between two ruled tables of one width (wasm/read/pdf-rule-sections.ts), on text lines and
// rules laid out by hand: Chrome's print of pandoc's tables rules each at its top, under its header
// and at its bottom; two tables of one width on a page, the second cut by the page's end, give five
// rules of one extent, and the heading between the tables stands between two of them.

import { describe, expect, it } from 'vitest';
import type { Rule } from '../../wasm/read/pdf-rules.js';
import { holdsTextBetweenTables } from '../../wasm/read/pdf-rule-sections.js';
import { markdownOf, piece, row } from '../helpers/ruled-lines.js';

const rule = (at: number): Rule => ({ at, from: 50, to: 400 });

// The second table's columns stand apart from the first's: its header's middle cell spans the first's gap.
const FIRST = [55, 170, 240];
const SECOND = [55, 150, 280];

describe('holdsTextBetweenTables', () => {
  const heading = piece(55, 185, '2.2 Producer Configuration');

  it('finds a lone line standing more than an em off both rules around it', () => {
    expect(holdsTextBetweenTables([rule(100), rule(115), rule(165), rule(205)], [heading])).toBe(true);
  });

  it('finds a heading and the short line leading into the next table, together well off both rules', () => {
    const lead = piece(55, 200, 'Its settings:');
    expect(holdsTextBetweenTables([rule(100), rule(115), rule(165), rule(220)], [heading, lead])).toBe(true);
  });

  it('leaves a one-line row that hugs its rules, and the header above the first inner rule', () => {
    expect(holdsTextBetweenTables([rule(100), rule(115), rule(178), rule(190)], [heading])).toBe(false);
    expect(holdsTextBetweenTables([rule(165), rule(205), rule(260)], [heading])).toBe(false);
  });

  // Between the first table's bottom rule and the second's top rule: an example line, a code
  // block's two wrapped lines and a heading, each line a paragraph's spacing off the rules.
  const between = [piece(55, 185, 'Example:'), piece(55, 200, 'java -jar agent.jar --ip'), piece(55, 212, '--port 2671'), piece(55, 230, 'Start the proxy')];

  it('finds lines standing off both rules in the header’s section, where asked (the rule above ends the table above)', () => {
    expect(holdsTextBetweenTables([rule(165), rule(245), rule(260)], between, 0)).toBe(true);
    expect(holdsTextBetweenTables([rule(165), rule(245), rule(260)], between)).toBe(false);
  });

  it('leaves a header row whose centred cell stands off its rules while its wrapped cell hugs them', () => {
    const header = [piece(55, 109, 'Re-'), piece(120, 118, 'Parameter'), piece(55, 127, 'quired')];
    expect(holdsTextBetweenTables([rule(100), rule(130), rule(160)], header, 0)).toBe(false);
  });

  it('leaves a lone line of three cells standing off its rules: a header centred in a row a clipped cell made tall', () => {
    // Chrome cut the table at the page's edge; the last header cell, wrapped over four lines there, is not in the PDF.
    const header = row(125, FIRST, ['name', 'default', 'description']);
    expect(holdsTextBetweenTables([rule(100), rule(150), rule(170)], header, 0)).toBe(false);
    // Two phrases a column gap apart are still a heading's number and title, or a line between two tables.
    expect(holdsTextBetweenTables([rule(100), rule(150), rule(170)], row(125, FIRST, ['2.5', 'Producer']), 0)).toBe(true);
  });
});

describe('ruleTables: a table whose top rule is lost, a numbered heading, a second table', () => {
  it('reads the second table under its own header, the heading in neither', () => {
    // The first table's top rule is missing from the page's rules (as on a page of Arthas's
    // AGENTS.md in Chrome's print), so no table ends at the rule above the heading; the heading's
    // number and title are two pieces.
    const lines = [
      ...row(96, FIRST, ['Parameter', 'Default', 'Description']),
      ...row(111, FIRST, ['clientIP', 'Local IP', 'local address']),
      ...row(127, FIRST, ['instanceName', 'DEFAULT', 'unique name']),
      ...row(143, FIRST, ['pollInterval', '30000', 'poll period']),
      piece(55, 185, '2.5'),
      piece(74, 185, 'Producer Configuration'),
      ...row(216, SECOND, ['Parameter', 'Default Value', 'Description']),
      ...row(232, SECOND, ['producerGroup', 'DEFAULT_PRODUCER', 'group name']),
      ...row(248, SECOND, ['sendTimeout', '3000', 'send timeout']),
    ];
    const tables = markdownOf(lines, [rule(100), rule(150), rule(205), rule(220), rule(253)]);
    expect(tables.at(-1)).toBe(
      '| Parameter | Default Value | Description |\n| - | - | - |\n| producerGroup | DEFAULT_PRODUCER | group name |\n| sendTimeout | 3000 | send timeout |',
    );
    expect(tables.join('\n')).not.toContain('Producer Configuration');
  });
});

describe('ruleTables: two tables of one width, a heading between them, the second cut by the page’s end', () => {
  it('reads each table with its own columns, the heading in neither', () => {
    const lines = [
      ...row(111, FIRST, ['Parameter', 'Default', 'Description']),
      ...row(127, FIRST, ['clientIP', 'Local IP', 'local address']),
      ...row(143, FIRST, ['instanceName', 'DEFAULT', 'unique name']),
      ...row(159, FIRST, ['pollInterval', '30000', 'poll period']),
      piece(55, 185, '2.2 Producer Configuration'),
      ...row(216, SECOND, ['Parameter', 'Default Value', 'Description']),
      ...row(232, SECOND, ['producerGroup', 'DEFAULT_PRODUCER', 'group name']),
      ...row(248, SECOND, ['sendTimeout', '3000', 'send timeout']),
    ];
    expect(markdownOf(lines, [rule(100), rule(115), rule(165), rule(205), rule(220)])).toEqual([
      '| Parameter | Default | Description |\n| - | - | - |\n| clientIP | Local IP | local address |\n| instanceName | DEFAULT | unique name |\n| pollInterval | 30000 | poll period |',
      '| Parameter | Default Value | Description |\n| - | - | - |\n| producerGroup | DEFAULT_PRODUCER | group name |\n| sendTimeout | 3000 | send timeout |',
    ]);
  });
});
