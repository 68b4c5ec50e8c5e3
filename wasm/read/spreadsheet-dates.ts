// Spreadsheet dates: a cell holds a number (days since 1899-12-30, or 1904-01-01) and its number
// format says whether that number is a date, a time or both. Written as ISO 8601, which every
// reader (and every language model) understands whatever the locale of the file.

/** Excel's built-in date/time formats (ECMA-376 18.8.30). */
const BUILTIN_DATE: Readonly<Record<number, 'date' | 'time' | 'datetime'>> = {
  14: 'date',
  15: 'date',
  16: 'date',
  17: 'date',
  18: 'time',
  19: 'time',
  20: 'time',
  21: 'time',
  22: 'datetime',
  45: 'time',
  46: 'time',
  47: 'time',
};

/** 'date' | 'time' | 'datetime' when the format shows a date or time, else undefined. */
export function isDateFormat(numFmtId: number, formatCode: string | undefined): string | undefined {
  if (BUILTIN_DATE[numFmtId]) return BUILTIN_DATE[numFmtId];
  if (!formatCode) return undefined;
  // Quoted text, escaped characters and [colour]/[$-locale] sections say nothing about dates.
  const code = formatCode.replace(/"[^"]*"|\\.|\[[^\]]*\]/g, '').toLowerCase();
  if (code.trim() === 'general') return undefined;
  const hasTime = /[hs]|am\/pm/.test(code);
  // "m" is a month beside d/y or alone, a minute beside h/s.
  const hasDate = /[dy]/.test(code) || (/m/.test(code) && !hasTime);
  if (hasDate && hasTime) return 'datetime';
  if (hasDate) return 'date';
  if (hasTime) return 'time';
  return undefined;
}

const DAY_MS = 86_400_000;
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

export function formatSerialDate(serial: number, kind: string, date1904: boolean): string {
  const ms = Math.round(((date1904 ? EPOCH_1904 : EPOCH_1900) + serial * DAY_MS) / 1000) * 1000;
  const iso = new Date(ms).toISOString();
  const date = iso.slice(0, 10);
  const time = iso.slice(11, 19).replace(/:00$/, '');
  if (kind === 'time') return iso.slice(11, 19);
  if (kind === 'datetime') return `${date} ${time}`;
  return date;
}
