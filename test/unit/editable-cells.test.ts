// Table cells typed for a workbook (wasm/read/editable/cells.ts): the document's decimal
// convention decided over all its numbers, separators, currency, percent and accounting
// minus understood, IDs with leading zeros and anything not wholly a number kept as text.

import { describe, expect, it } from 'vitest';
import { cellValue, decimalMarkOf } from '../../wasm/read/editable/cells.js';

describe('cell values of an editable workbook', () => {
  it('reads numbers by the decimal mark most of the document uses', () => {
    expect(decimalMarkOf(['1,234.50', '12.5', '7'])).toBe('.');
    expect(decimalMarkOf(['1.234,50', '12,5', '1.000'])).toBe(',');
    // Groups of three alone say nothing: a point is assumed.
    expect(decimalMarkOf(['1,234', '5,678'])).toBe('.');
    expect(cellValue('1.234,50', ',')).toEqual({ value: 1234.5, numFmt: '#,##0.00' });
    expect(cellValue('1,234.50', '.')).toEqual({ value: 1234.5, numFmt: '#,##0.00' });
    expect(cellValue('12,5', ',')).toEqual({ value: 12.5, numFmt: '0.0' });
  });

  it('understands currency, percent, signs and an accounting minus', () => {
    expect(cellValue('$2,000.00', '.')).toEqual({ value: 2000, numFmt: '"$"#,##0.00' });
    expect(cellValue('1.234,00 €', ',')).toEqual({ value: 1234, numFmt: '#,##0.00"€"' });
    expect(cellValue('12.5%', '.')).toEqual({ value: 0.125, numFmt: '0.0%' });
    expect(cellValue('(300)', '.')).toEqual({ value: -300 });
    expect(cellValue('−4.5', '.')).toEqual({ value: -4.5, numFmt: '0.0' });
    expect(cellValue('42', '.')).toEqual({ value: 42 });
  });

  it('keeps IDs with leading zeros, malformed groups and text as text, and an empty cell empty', () => {
    expect(cellValue('00123', '.')).toEqual({ value: '00123' });
    expect(cellValue('12,34', '.')).toEqual({ value: '12,34' });
    expect(cellValue('1.2.3', '.')).toEqual({ value: '1.2.3' });
    expect(cellValue('(300', '.')).toEqual({ value: '(300' });
    expect(cellValue('North 南方', '.')).toEqual({ value: 'North 南方' });
    expect(cellValue('0.5', '.')).toEqual({ value: 0.5, numFmt: '0.0' });
    expect(cellValue('  ', '.')).toEqual({ value: null });
  });

  it('reads digits spaced in groups of three as one number, and two numbers a space apart (two columns read as one cell) as text', () => {
    expect(cellValue('1 234 567', '.')).toEqual({ value: 1234567 });
    expect(cellValue('1\u00a0234,50', ',')).toEqual({ value: 1234.5, numFmt: '0.00' });
    expect(cellValue("12'500", '.')).toEqual({ value: 12500 });
    expect(cellValue('120 2400', '.')).toEqual({ value: '120 2400' });
    expect(cellValue('4 1,204,500', '.')).toEqual({ value: '4 1,204,500' });
    expect(cellValue('95 1 900', '.')).toEqual({ value: '95 1 900' });
  });

  it('reads an ISO date as a date, and a date-like text that is no date as text', () => {
    expect(cellValue('2024-03-07', '.')).toEqual({ value: new Date(Date.UTC(2024, 2, 7)), numFmt: 'yyyy-mm-dd' });
    expect(cellValue('1999-12-31', ',')).toEqual({ value: new Date(Date.UTC(1999, 11, 31)), numFmt: 'yyyy-mm-dd' });
    expect(cellValue('2024-02-30', '.')).toEqual({ value: '2024-02-30' });
    expect(cellValue('2024-3-7', '.')).toEqual({ value: '2024-3-7' });
  });
});
