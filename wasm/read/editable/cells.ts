// A table cell's text as a spreadsheet value: numbers as numbers (thousands separators, currency
// and percent signs, an accounting minus in brackets understood), with the document's decimal
// convention (1,234.50 or 1.234,50) decided once over all its cells; ISO dates (2024-03-07,
// what a spreadsheet prints for a date in its own format) as dates; anything else, and numbers
// with leading zeros (IDs, postcodes), stays text.

/** `.` or `,`: which one separates decimals in the document. */
export type DecimalMark = '.' | ',';

export interface CellValue {
  value: string | number | Date | null;
  /** Excel's number format for a number that was written with one. */
  numFmt?: string;
}

const CURRENCY = '$€£¥￥₹₩';
// sign, opening bracket, currency, digits with separators, currency or percent, closing bracket
const NUMERIC = new RegExp(`^([-−+]?)\\s*(\\(?)\\s*([${CURRENCY}]?)\\s*(\\d[\\d.,' \\u00a0\\u202f]*)\\s*([${CURRENCY}%]?)\\s*(\\)?)$`);

/** The mark most of the cells' numbers use for decimals (a point where nothing tells). */
export function decimalMarkOf(texts: Iterable<string>): DecimalMark {
  let point = 0;
  let comma = 0;
  for (const text of texts) {
    const digits = NUMERIC.exec(text.trim())?.[4];
    if (!digits) continue;
    const last = Math.max(digits.lastIndexOf('.'), digits.lastIndexOf(','));
    if (last < 0) continue;
    const mark = digits[last];
    const after = digits.length - last - 1;
    // 1.234,5 or 1,234.50 says it by the order; a lone mark with 1, 2 or 4+ digits after it is a decimal one.
    const both = digits.includes('.') && digits.includes(',');
    if (both || after !== 3) {
      if (mark === '.') point++;
      else comma++;
    }
  }
  return comma > point ? ',' : '.';
}

/** What may set a number's groups apart besides the document's group mark. */
const GROUP_SPACES = "' \u00a0\u202f";

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A day written year-month-day, when it is one (not 2024-02-30). */
function isoDate(text: string): Date | undefined {
  const [, year, month, day] = (ISO_DATE.exec(text) ?? []).map(Number);
  if (year === undefined || month === undefined || day === undefined) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : undefined;
}

/**
 * Whether the whole part of a number is digits alone, or groups of three after the first set
 * apart by one separator throughout (1,234,567; 1 234 567; 12'500): anything else (12,34; two
 * numbers a space apart, "120 2400", where two columns were read as one cell) is not a number.
 */
function wellGrouped(whole: string, group: string): boolean {
  const separators = new Set(whole.match(/\D/g));
  if (separators.size === 0) return true;
  const [separator = ''] = separators;
  return separators.size === 1 && (separator === group || GROUP_SPACES.includes(separator)) && new RegExp(`^\\d{1,3}(?:\\${separator}\\d{3})+$`).test(whole);
}

export function cellValue(text: string, decimal: DecimalMark): CellValue {
  const trimmed = text.trim();
  if (trimmed === '') return { value: null };
  const date = isoDate(trimmed);
  if (date) return { value: date, numFmt: 'yyyy-mm-dd' };
  const match = NUMERIC.exec(trimmed);
  if (!match) return { value: trimmed };
  const [, sign = '', open = '', before = '', digits = '', after = '', close = ''] = match;
  if (!!open !== !!close) return { value: trimmed };
  const group = decimal === '.' ? ',' : '.';
  const [whole = '', fraction, extra] = digits.trim().split(decimal);
  if (extra !== undefined || !wellGrouped(whole, group)) return { value: trimmed };
  const plain = whole.replace(/\D/g, '');
  if (!/^\d+$/.test(plain) || (fraction !== undefined && !/^\d+$/.test(fraction))) return { value: trimmed };
  // An ID: leading zeros are part of it.
  if (plain.length > 1 && plain.startsWith('0') && plain === whole) return { value: trimmed };
  const percent = after === '%';
  const currency = before || (percent ? '' : after);
  const negative = sign === '-' || sign === '−' || open === '(';
  const magnitude = Number(`${plain}${fraction === undefined ? '' : `.${fraction}`}`);
  const value = (negative ? -magnitude : magnitude) / (percent ? 100 : 1);
  const numFmt = numberFormat({ grouped: whole.includes(group) || !!currency, decimals: fraction?.length ?? 0, percent, currency, before: !!before });
  return { value, ...(numFmt && { numFmt }) };
}

function numberFormat({
  grouped,
  decimals,
  percent,
  currency,
  before,
}: {
  grouped: boolean;
  decimals: number;
  percent: boolean;
  currency: string;
  before: boolean;
}): string | undefined {
  if (!grouped && !percent && decimals === 0) return undefined;
  const base = `${grouped ? '#,##0' : '0'}${decimals > 0 ? `.${'0'.repeat(decimals)}` : ''}`;
  if (percent) return `${base}%`;
  if (!currency) return grouped || decimals > 0 ? base : undefined;
  return before ? `"${currency}"${base}` : `${base}"${currency}"`;
}
