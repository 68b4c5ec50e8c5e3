// Columns only a ruled header shows (wasm/read/pdf-header-columns.ts), on text pieces laid out by
// hand: a results table whose body fills its first column alone, a column empty in every row, and
// a wide column of short names under its centred header, which is that column's and adds none.

import { describe, expect, it } from 'vitest';
import { staysUnderHeader, withHeaderColumns } from '../../wasm/read/pdf-header-columns.js';
import { piece } from '../helpers/ruled-lines.js';

/** Bands of `[from, to]` pairs, as the body's pieces give them. */
const bands = (...pairs: [number, number][]) => pairs.map(([from, to]) => ({ from, to }));

describe('withHeaderColumns', () => {
  // A test report's header, each narrow cell wrapped over two lines centred on each other.
  const header = [piece(50, 100, 'Channels'), piece(135, 95, 'DataX'), piece(130, 107, 'speed(s)'), piece(200, 95, 'DB'), piece(195, 107, 'load')];

  it('adds a column for each header cell over no body column', () => {
    expect(withHeaderColumns(bands([50, 55]), header)).toEqual(bands([50, 55], [130, 170], [195, 215]));
  });

  it('adds none for a header cell over a body column, or spanning two', () => {
    expect(withHeaderColumns(bands([50, 55], [130, 150], [195, 210]), header)).toEqual(bands([50, 55], [130, 150], [195, 210]));
    expect(withHeaderColumns(bands([50, 90], [120, 140], [150, 170]), [piece(50, 95, 'Option'), piece(125, 95, 'Default and limit')])).toEqual(
      bands([50, 90], [120, 140], [150, 170]),
    );
  });

  it('leaves a centred header cell beside a body column no header cell stands over to that column', () => {
    // "Parameter" centred in a wide column of "port" and "ip", left of it on a left-to-right page, right of it on a right-to-left one.
    const names = [piece(120, 95, 'Parameter'), piece(250, 95, 'Required')];
    expect(withHeaderColumns(bands([50, 70], [250, 255]), names)).toEqual(bands([50, 70], [250, 255]));
    expect(withHeaderColumns(bands([250, 255], [300, 320]), [piece(50, 95, 'Required'), piece(190, 95, 'Parameter')])).toEqual(bands([250, 255], [300, 320]));
  });
});

describe('staysUnderHeader', () => {
  const header = [piece(50, 95, 'Channels'), piece(130, 95, 'Speed'), piece(200, 95, 'Load')];

  it('takes a row whose pieces each stand under one header cell at most', () => {
    expect(staysUnderHeader([[piece(50, 120, '16')]], header)).toBe(true);
    expect(staysUnderHeader([[piece(50, 120, '16'), piece(200, 120, '0.5')]], header)).toBe(true);
  });

  it('refuses a line running across header cells, a paragraph between two rules', () => {
    expect(staysUnderHeader([[piece(50, 120, 'The figures are still to be measured.')]], header)).toBe(false);
  });
});
